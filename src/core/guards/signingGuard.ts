import { isMutating } from '../pipeline/governedTool';
import type { PreHook } from '../pipeline/hookTypes';

/**
 * No change whose record cannot be signed: the administrator requires signing (the managed file's requireSigning)
 * and there is no key, or this governor's key is revoked in the workspace. Refused before a person is asked, and
 * before an agent's own tool runs (its record is written after, too late to stop it).
 */
export const signingGuard: PreHook = {
  name: 'signing-guard',
  guard: true,
  async run({ facts }) {
    if (!isMutating(facts.definition)) return { decision: { kind: 'allow' } };
    const problem = facts.services.trace.signingProblem?.();
    return problem ? { decision: { kind: 'deny', error: problem } } : { decision: { kind: 'allow' } };
  },
};
