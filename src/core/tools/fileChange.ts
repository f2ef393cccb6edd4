import { decodeText } from '../hooks/callFacts';
import type { ToolOutput } from '../hooks/hookTypes';
import { replaceIfUnchanged } from '../policy/optimisticLock';
import { fail, ok, type Result } from '../toolError';
import type { ToolExecution } from './toolDefinition';

const encoder = new TextEncoder();

/**
 * Publishes a file tool's proposed content under the per-path lock, re-checking the agent's basis right
 * before the atomic replace. Shared by write_file, edit_file and delete_file.
 */
export async function applyProposedChange({ facts, services, call }: ToolExecution): Promise<Result<ToolOutput>> {
  const target = await facts.target();
  if (!target.ok) return fail(target.error);
  const proposed = await facts.proposed();
  if (!proposed.ok) return fail(proposed.error);
  const { abs, rel } = target.value;
  const next = proposed.value === null ? null : encoder.encode(proposed.value);
  const result = await replaceIfUnchanged(services.workspace, services.locks, { abs, rel }, facts.basis(rel), next);
  if (!result.ok) return fail(result.error);
  const before = decodeText(result.value.before);
  const after = proposed.value ?? undefined;
  const verb = after === undefined ? 'Deleted' : before === undefined ? 'Created' : 'Updated';
  const hashNote = result.value.afterHash ? ` New content_hash: ${result.value.afterHash}` : '';
  return ok({
    text: `${verb} ${rel}.${hashNote}`,
    data: { path: rel, content_hash: result.value.afterHash ?? null, previous_content_hash: result.value.beforeHash ?? null, invocation_id: call.invocation_id },
    changes: [{ path: rel, before, after }],
  });
}
