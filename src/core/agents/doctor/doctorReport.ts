/**
 * What `governor doctor` (and Intent Governor: Check Agent Hooks) reports: one entry per registered agent, and
 * `checks`, where checks of the governor itself go (the command sandbox's, when it comes). The CLI prints it as
 * text or JSON; the extension shows the same text.
 */

/** How an agent reaches the governor. */
export type DoorKind = 'command hook' | 'resident (mcp_tool)' | 'plugin' | 'scripts';

/**
 * enforced: the canary write was refused by the governor's own decision; trace-only: the agent's hooks cannot refuse
 * (its adapter says so); broken: the canary was allowed, the hook failed or timed out without refusing, refused
 * without reaching the governor (then it refuses every call), or its file cannot be read; not installed: none of
 * our hooks in the agent's files.
 */
export type DoorVerdict = 'enforced' | 'trace-only' | 'broken' | 'not installed';

export interface AgentDoorReport {
  agent: string;
  label: string;
  verdict: DoorVerdict;
  /** Absent when not installed. */
  door?: DoorKind;
  /** Where the door is, relative to the workspace. */
  hookFile: string;
  /** `<binary> --version`, 'not found' when the adapter names a binary not on PATH, 'no binary' when it has none. */
  version: string;
  /** The reason the agent's model would read (enforced), or what went wrong. */
  detail: string;
  /** One line: what to do. */
  fix?: string;
}

/** A check of the governor beyond the agents' doors (the command sandbox's goes here). */
export interface DoctorCheck {
  id: string;
  title: string;
  verdict: 'ok' | 'warning' | 'broken' | 'skipped';
  detail: string;
  fix?: string;
}

export interface DoctorReport {
  workspace: string;
  /** The write every door was asked about (never made), and the session id the governance log records it under. */
  canary: { path: string; sessionId: string };
  agents: AgentDoorReport[];
  checks: DoctorCheck[];
  /** What the run left in the workspace's logs, said plainly. */
  notes: string[];
  /** Every installed door enforces and no check is broken. */
  ok: boolean;
}

export function reportOk(agents: readonly AgentDoorReport[], checks: readonly DoctorCheck[]): boolean {
  return agents.every((a) => a.verdict === 'enforced' || a.verdict === 'not installed') && checks.every((c) => c.verdict !== 'broken');
}

/** Agents whose installed door does not refuse. */
export function brokenDoors(report: DoctorReport): AgentDoorReport[] {
  return report.agents.filter((a) => a.verdict === 'broken' || a.verdict === 'trace-only');
}

/** The first sentence of a long reason (--json keeps it whole). */
function short(text: string, max = 160): string {
  const sentence = /^(.{40,}?[.!?])\s/su.exec(text)?.[1] ?? text;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

export function doctorReportText(report: DoctorReport): string {
  const installed = report.agents.filter((a) => a.verdict !== 'not installed');
  const lines = [`Intent Governor doctor: ${report.workspace}`, `canary: a write to ${report.canary.path} (session ${report.canary.sessionId}); never written`, ''];
  for (const agent of installed) {
    lines.push(`${agent.label}: ${agent.verdict}`);
    lines.push(`  door:    ${agent.door ? `${agent.door}, ` : ''}${agent.hookFile}`);
    lines.push(`  version: ${agent.version}`);
    lines.push(agent.verdict === 'enforced' ? `  refused: ${short(agent.detail)}` : `  why:     ${agent.detail}`);
    if (agent.fix) lines.push(`  fix:     ${agent.fix}`);
    lines.push('');
  }
  for (const agent of report.agents.filter((a) => a.verdict === 'not installed')) lines.push(`${agent.label}: not installed: ${agent.fix ?? `governor hooks install --agent ${agent.agent}`}`);
  if (report.checks.length) {
    lines.push('', 'Checks:');
    for (const check of report.checks) lines.push(`${check.title}: ${check.verdict}: ${check.detail}${check.fix ? ` (fix: ${check.fix})` : ''}`);
  }
  const enforced = installed.filter((a) => a.verdict === 'enforced').length;
  const failing = brokenDoors(report);
  lines.push('');
  if (installed.length === 0) lines.push('No agent hooks are installed in this workspace: run `governor hooks install`.');
  else lines.push(`${enforced} of ${installed.length} installed door${installed.length === 1 ? '' : 's'} enforce${failing.length ? `; not enforcing: ${failing.map((a) => a.label).join(', ')}` : ''}.`);
  for (const note of report.notes) lines.push(note);
  return `${lines.join('\n')}\n`;
}
