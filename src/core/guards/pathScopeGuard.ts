import { governorFileRefusal } from '../commands/governorFilesRule';
import { validateScopePattern } from '../intents/scopePattern';
import { protectedPathError, protectedPatternFor } from '../paths/protectedPaths';
import { matchScope, scopeViolationError } from '../policy/scope';
import { toolError } from '../toolError';
import type { PreHook } from '../pipeline/hookTypes';

/**
 * Every path goes through the one canonicaliser and stays out of the governor's own files (the rule the command
 * policy applies to every word); writes must also miss the protected paths and hit the bound intent's owned_scope. Scope-expansion globs are checked here too, before a human is asked.
 */
export const pathScopeGuard: PreHook = {
  name: 'path-scope-guard',
  guard: true,
  async run({ facts }) {
    if (facts.definition.mutation === 'scope') {
      const globs = facts.input.globs as string[];
      for (const [index, glob] of globs.entries()) {
        const reason = validateScopePattern(glob);
        if (reason) return { decision: { kind: 'deny', error: toolError('INVALID_INPUT', `globs[${index}] '${glob}': ${reason}`, { field: `globs[${index}]` }) } };
      }
      return { decision: { kind: 'allow' } };
    }
    const paths = await facts.paths();
    if (!paths.ok) return { decision: { kind: 'deny', error: paths.error } };
    // No path of any call may be the governor's own files; a recursive listing without a path lists the root.
    const recursive = facts.input.recursive === true;
    const named = recursive && !paths.value.some((p) => p.field === 'path') ? [...paths.value, { abs: facts.services.workspace.root, rel: '' }] : paths.value;
    for (const target of named) {
      const refusal = governorFileRefusal(target.abs, target.rel, { recursive });
      if (refusal) return { decision: { kind: 'deny', error: refusal } };
    }
    const writes = paths.value.filter((p) => p.purpose === 'write');
    if (writes.length === 0) return { decision: { kind: 'allow' } };
    const intent = await facts.boundIntent();
    if (!intent.ok) return { decision: { kind: 'deny', error: intent.error } };
    for (const target of writes) {
      const pattern = protectedPatternFor(target.rel);
      if (pattern) return { decision: { kind: 'deny', error: protectedPathError(target.rel, pattern) } };
      const scope = intent.value.owned_scope;
      if (!matchScope(target.rel, scope, { caseInsensitive: facts.services.caseInsensitive })) {
        return { decision: { kind: 'deny', error: scopeViolationError(target.rel, intent.value.id, scope) } };
      }
    }
    return { decision: { kind: 'allow' } };
  },
};
