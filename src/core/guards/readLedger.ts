import type { PostHook } from '../pipeline/hookTypes';

/**
 * Remembers what each session has seen: a read records the file's hash and text, and the session's own
 * successful writes become its new basis, so an agent can edit twice without re-reading in between.
 */
export const readLedger: PostHook = {
  name: 'read-ledger',
  run({ call, facts, outcome }) {
    if (outcome.status !== 'success') return;
    const sessions = facts.services.sessions;
    const { data, changes } = outcome.output;
    if (facts.definition.name === 'read_file' && typeof data.path === 'string' && typeof data.content_hash === 'string') {
      sessions.recordRead(call.session_id, data.path, data.content_hash, typeof data.content === 'string' ? data.content : undefined);
    }
    if (facts.definition.mutation === 'command') return; // a command's writes were not seen by the agent
    for (const change of changes ?? []) {
      const hash = typeof data.content_hash === 'string' ? data.content_hash : undefined;
      if (change.after === undefined || hash === undefined) sessions.forgetRead(call.session_id, change.path);
      else sessions.recordRead(call.session_id, change.path, hash, change.after);
    }
  },
};
