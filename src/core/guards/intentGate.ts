import { isMutating } from '../pipeline/governedTool';
import type { PreHook } from '../pipeline/hookTypes';

/** No mutation without a bound, valid, IN_PROGRESS intent; a broken intents file refuses every mutation. */
export const intentGate: PreHook = {
  name: 'intent-gate',
  guard: true,
  async run({ facts }) {
    if (!isMutating(facts.definition)) return { decision: { kind: 'allow' } };
    const intent = await facts.boundIntent();
    return intent.ok ? { decision: { kind: 'allow' } } : { decision: { kind: 'deny', error: intent.error } };
  },
};
