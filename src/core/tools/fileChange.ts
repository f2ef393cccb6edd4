import { relative, sep } from 'node:path';
import { decodeText } from '../pipeline/callFacts';
import type { ToolOutput } from '../pipeline/hookTypes';
import { mutationEventFor } from '../pipeline/mutationEvent';
import { replaceIfUnchanged } from '../policy/optimisticLock';
import { fail, ok, type Result } from '../toolError';
import type { ToolExecution } from './toolDefinition';

const encoder = new TextEncoder();

/**
 * Publishes a file tool's proposed content: under the cross-process write lock, re-checks what the call was
 * decided on (the agent's basis, the content the change was computed from, the path's folders, cancellation),
 * appends the trace record, then renames. Shared by write_file, edit_file and delete_file.
 */
export async function applyProposedChange(execution: ToolExecution): Promise<Result<ToolOutput>> {
  const { facts, services, call, approval } = execution;
  const target = await facts.target();
  if (!target.ok) return fail(target.error);
  const proposed = await facts.proposed();
  if (!proposed.ok) return fail(proposed.error);
  const { abs, rel } = target.value;
  // Classified now, so parsing the before and after never runs under the write lock; the record reuses it.
  await facts.proposedChangeClass();
  const next = proposed.value === null ? null : encoder.encode(proposed.value);
  const computedFrom = await facts.current(abs);
  const result = await replaceIfUnchanged(services.workspace, services.locks, {
    target: { abs, rel },
    basis: facts.basis(rel),
    computedFrom,
    next,
    signal: execution.signal,
    async record(outcome, staged) {
      const change = { path: rel, before: decodeText(outcome.before), after: proposed.value ?? undefined };
      const event = await mutationEventFor(facts, [change], approval);
      if (!event) throw new Error(`${call.tool} is not a file mutation`);
      // The temp file's name tells recovery whether the rename happened, whatever the file holds later.
      const stagedRel = staged && relative(services.workspace.root, staged.tempPath).split(sep).join('/');
      return services.trace.recordAhead(event, [{ path: rel, before_hash: outcome.beforeHash, after_hash: outcome.afterHash, ...(stagedRel ? { staged: stagedRel } : {}) }]);
    },
  });
  if (!result.ok) return fail(result.error);
  const before = decodeText(result.value.before);
  const after = proposed.value ?? undefined;
  const verb = after === undefined ? 'Deleted' : before === undefined ? 'Created' : 'Updated';
  const hashNote = result.value.afterHash ? ` New content_hash: ${result.value.afterHash}` : '';
  return ok({
    text: `${verb} ${rel}.${hashNote}`,
    data: { path: rel, content_hash: result.value.afterHash ?? null, previous_content_hash: result.value.beforeHash ?? null, invocation_id: call.invocation_id },
    changes: [{ path: rel, before, after }],
    recorded: true,
  });
}
