import type { StandingApproval } from '../../core/approval/standingApprovals';
import type { CallSummary, IntentBinding, LiveSession } from '../../core/sessions/sessionActivity';
import type { IntentStatus } from '../intents/intentStatus';

// What the Agent Sessions view and the status bar say about live sessions; plain data, tested without VS Code.

/** `auth-refactor (its own)`, `auth-refactor (yours)`, `unbound`, `no intent`. */
export function bindingText(binding: IntentBinding): string {
  switch (binding.kind) {
    case 'own':
      return `${binding.intentId} (its own)`;
    case 'default':
      return binding.intentId === undefined ? 'no intent' : `${binding.intentId} (yours)`;
    case 'unbound':
      return 'unbound';
  }
}

/** The intent line's tooltip: what the binding means for the session's next change. */
export function bindingTooltip(binding: IntentBinding): string {
  switch (binding.kind) {
    case 'own':
      return `The agent selected ${binding.intentId}: its changes are judged against that intent's scope.`;
    case 'default':
      return binding.intentId === undefined
        ? 'The agent has not selected an intent and you have none: its changes are refused (NO_ACTIVE_INTENT) until one is selected.'
        : `The agent has not selected an intent of its own, so it works under yours (${binding.intentId}).`;
    case 'unbound':
      return 'You unbound this session: its changes are refused (NO_ACTIVE_INTENT) until the agent selects an intent again. Your own intent does not apply to it.';
  }
}

/**
 * `write_file src/a.ts: denied SCOPE_VIOLATION`, `read_file src/a.ts: allowed`. Agents' native tools name files by
 * absolute path: under `root` they show workspace-relative, as our own tools name them.
 */
export function callText(call: CallSummary, root?: string): string {
  const what = call.target === undefined ? call.tool : `${call.tool} ${targetText(call.target, root)}`;
  const decision = call.code !== undefined ? `${call.decision} ${call.code}` : call.approver !== undefined ? `${call.decision} (approved by ${call.approver})` : call.decision;
  return `${what}: ${decision}`;
}

export function targetText(target: string, root: string | undefined): string {
  if (root === undefined) return target;
  const prefix = root.endsWith('/') || root.endsWith('\\') ? root : `${root}${root.includes('\\') ? '\\' : '/'}`;
  return target.startsWith(prefix) ? target.slice(prefix.length) : target;
}

/** The text beside a session's agent name: `MCP · auth-refactor (its own) · 1 pending`. */
export function sessionDescription(session: LiveSession): string {
  const parts = [session.door.label, bindingText(session.intent)];
  if (session.pendingApprovals > 0) parts.push(`${session.pendingApprovals} pending`);
  return parts.join(' · ');
}

/** `Approved for this session in auth-refactor`, with who granted it and when in the tooltip. */
export function standingText(approval: StandingApproval): string {
  return `approved for this session in ${approval.intent}`;
}

/**
 * The status bar with the agents added: `$(shield) auth-refactor · 2 agents`. When agents work under intents the
 * human's text does not name (the human picked none, or another one), those intents show too, so an agent's
 * binding is never invisible: `$(shield) no intent · 1 agent on INT-001`.
 */
export function withAgents(status: IntentStatus, humanIntent: string | undefined, sessions: readonly LiveSession[]): IntentStatus {
  if (sessions.length === 0) return status;
  const count = `${sessions.length} agent${sessions.length === 1 ? '' : 's'}`;
  const others = [...new Set(sessions.map((s) => boundId(s.intent)).filter((id): id is string => id !== undefined && id !== humanIntent))];
  const on = others.length === 0 ? '' : humanIntent === undefined ? ` on ${others.join(', ')}` : ` (also on ${others.join(', ')})`;
  const lines = sessions.map((s) => `• ${s.agent} (${s.door.label}): ${bindingText(s.intent)}${s.pendingApprovals > 0 ? `, ${s.pendingApprovals} approval${s.pendingApprovals === 1 ? '' : 's'} pending` : ''}`);
  return { text: `${status.text} · ${count}${on}`, tooltip: `${status.tooltip}\n\nAgent sessions:\n${lines.join('\n')}` };
}

function boundId(binding: IntentBinding): string | undefined {
  return binding.kind === 'unbound' ? undefined : binding.intentId;
}
