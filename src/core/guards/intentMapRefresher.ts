import type { PostHook } from '../pipeline/hookTypes';

/**
 * Tells the intent map that a log grew, after the trace recorder: by then a change's record stands (a
 * write-ahead record once its change landed) and a refusal is in the governance log. An approved scope
 * expansion changed an owned scope the map shows. Returns at once; the map is rebuilt in the background.
 * Calls that recorded nothing (reads, listings, a bound intent) skip it.
 */
export const intentMapRefresher: PostHook = {
  name: 'intent-map',
  run({ facts, outcome }) {
    if (outcome.status !== 'success') return void facts.services.intentMap?.changed();
    const { output } = outcome;
    if (output.recorded === true || (output.changes?.length ?? 0) > 0 || facts.definition.mutation === 'scope') facts.services.intentMap?.changed();
  },
};
