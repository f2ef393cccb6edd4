// Hook processes in tests decide in one process, as before, unless a test turns the resident governor on
// (INTENT_GOVERNOR_RESIDENT=on): otherwise every temporary workspace a hook test makes would start one.
process.env.INTENT_GOVERNOR_RESIDENT ??= 'off';
