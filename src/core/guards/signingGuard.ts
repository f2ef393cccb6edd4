import { isMutating } from '../pipeline/governedTool';
import type { PreHook } from '../pipeline/hookTypes';
import { toolError } from '../toolError';

/**
 * No change whose record cannot be signed when the administrator requires signing (the managed file's
 * requireSigning): refused before a person is asked, and before an agent's own tool runs (its record is written
 * after, too late to stop it).
 */
export const signingGuard: PreHook = {
  name: 'signing-guard',
  guard: true,
  async run({ facts }) {
    if (!isMutating(facts.definition)) return { decision: { kind: 'allow' } };
    const problem = facts.services.trace.signingProblem?.();
    return problem ? { decision: { kind: 'deny', error: toolError('SIGNING_REQUIRED', problem) } } : { decision: { kind: 'allow' } };
  },
};
