import type { PostHook } from '../hookTypes';

/**
 * Tells the intent map that a log grew, after the trace recorder: by then a change's record stands (a
 * write-ahead record once its change landed) and a refusal is in the governance log. Returns at once; the map
 * is rebuilt in the background. Calls that recorded nothing (reads, listings, a bound intent) skip it.
 */
export const intentMapRefresher: PostHook = {
  name: 'intent-map',
  run({ facts, outcome }) {
    const recorded = outcome.status !== 'success' || outcome.output.recorded === true || (outcome.output.changes?.length ?? 0) > 0;
    if (recorded) facts.services.intentMap?.changed();
  },
};
