import { checkBasis, unsavedEditorError } from '../policy/optimisticLock';
import { isFileMutation } from '../pipeline/governedTool';
import type { PreHook } from '../pipeline/hookTypes';

/**
 * A file change must be based on the content that is there now (optimistic lock), must not clobber unsaved
 * editor edits, and must be applicable (an edit whose search text is missing is refused before anyone is asked).
 * The write re-checks under the per-path lock; this guard answers early and lets the `judge` mode (`governor decide`) report it.
 */
export const staleGuard: PreHook = {
  name: 'stale-guard',
  guard: true,
  async run({ facts }) {
    if (!isFileMutation(facts.definition)) return { decision: { kind: 'allow' } };
    const target = await facts.target();
    if (!target.ok) return { decision: { kind: 'deny', error: target.error } };
    const { abs, rel } = target.value;
    const current = await facts.current(abs);
    const stale = checkBasis(rel, facts.basis(rel), current);
    if (stale) return { decision: { kind: 'deny', error: stale } };
    if (await facts.services.workspace.hasUnsavedChanges?.(abs)) return { decision: { kind: 'deny', error: unsavedEditorError(rel) } };
    const proposed = await facts.proposed();
    return proposed.ok ? { decision: { kind: 'allow' } } : { decision: { kind: 'deny', error: proposed.error } };
  },
};
