import type { ApprovalRequest } from '../../core/approval/approver';

/** Diff lines shown inside the modal; the whole change is one click away (Open Diff…). */
export const DIFF_PREVIEW_LINES = 15;

/**
 * The modal's detail for a destructive call: everything a human needs to judge it without opening anything
 * else. Plain text, because native modals render no markdown. No "Risk:" line: the request's risk is rated
 * from the kind of operation alone (every write "low"), which a person would read as a verdict on the change.
 */
export function approvalDetail(request: ApprovalRequest): string {
  const lines = [
    `Intent: ${request.intent_id ?? '(none)'}`,
    `Tool: ${request.tool}`,
    `Files: ${request.files.length ? request.files.join(', ') : '(none)'}`,
    `Mutation: ${request.mutation_class}`,
  ];
  const change = request.change_class;
  if (change) lines.push(`Class: ${change.class} (${change.rule}: ${change.reason})`);
  if (request.command !== undefined) lines.push(`Command: ${request.command}`);
  lines.push('', 'Why you are asked:', ...request.reasons.map((reason) => `• ${reason}`));
  if (request.session_approvable) {
    lines.push('', `Approve for this Session: this agent session's later writes and edits inside ${request.intent_id}'s owned scope land without asking, until the session ends, you revoke it in Agent Sessions, or the intent's scope or status changes. Deletes and commands still ask.`);
  }
  if (request.diff) lines.push('', ...diffPreview(request.diff));
  return lines.join('\n');
}

/** The modal's detail for a scope expansion: the globs, the agent's own reason, and the intent they would join. */
export function scopeExpansionDetail(request: ApprovalRequest): string {
  return [
    `Intent: ${request.intent_id ?? '(none)'}`,
    `Agent asks to add to the owned scope:`,
    ...(request.globs ?? []).map((glob) => `  ${glob}`),
    '',
    `Agent's reason: ${request.agent_reason ?? '(none given)'}`,
    '',
    'Approving writes these globs into .orchestration/active_intents.yaml.',
  ].join('\n');
}

/** The first DIFF_PREVIEW_LINES lines of the patch, skipping the `Index:`/`====` banner `diff` prints first. */
export function diffPreview(diff: string): string[] {
  const all = diff.replace(/\n$/, '').split('\n');
  const start = all.findIndex((line) => line.startsWith('---'));
  const body = start >= 0 ? all.slice(start) : all;
  const shown = body.slice(0, DIFF_PREVIEW_LINES);
  const more = body.length - shown.length;
  return more > 0 ? [...shown, `… ${more} more line${more === 1 ? '' : 's'} (Open Diff… shows the whole change)`] : shown;
}
