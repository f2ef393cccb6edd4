import { brokenDoors, type AgentDoorReport, type DoctorReport } from '../../core/agents/doctor/doctorReport';

// What Intent Governor: Check Agent Hooks (Doctor) shows; plain data, tested without VS Code.

const ICONS: Record<AgentDoorReport['verdict'], string> = { enforced: '$(pass)', 'trace-only': '$(eye)', broken: '$(error)', 'not installed': '$(circle-slash)' };

export interface DoctorPickItem {
  label: string;
  description: string;
  detail: string;
  agent: string;
  /** Picking it reinstalls the agent's hooks (a broken door). */
  reinstall: boolean;
}

/** One row per agent: installed ones first (as the report lists them), then those not installed. */
export function doctorPickItems(report: DoctorReport): DoctorPickItem[] {
  const rows = [...report.agents.filter((a) => a.verdict !== 'not installed'), ...report.agents.filter((a) => a.verdict === 'not installed')];
  return rows.map((agent) => ({
    label: `${ICONS[agent.verdict]} ${agent.label}`,
    description: agent.verdict === 'not installed' ? 'not installed' : `${agent.verdict} · ${agent.door ?? '?'} · ${agent.version}`,
    detail: agent.verdict === 'not installed' ? `Install Agent Hooks… installs it (${agent.hookFile})` : `${agent.hookFile}: ${agent.verdict === 'broken' ? `${agent.detail} Pick to reinstall its hooks.` : agent.detail}`,
    agent: agent.agent,
    reinstall: agent.verdict === 'broken',
  }));
}

/** The notification: which doors do not refuse, or that all do. */
export function doctorSummary(report: DoctorReport): { level: 'info' | 'warning'; text: string } {
  const installed = report.agents.filter((a) => a.verdict !== 'not installed');
  const failing = brokenDoors(report);
  if (installed.length === 0) return { level: 'info', text: 'Intent Governor: no agent hooks are installed in this workspace. Run Install Agent Hooks… first.' };
  if (failing.length === 0) return { level: 'info', text: `Intent Governor: all ${installed.length} installed agent door${installed.length === 1 ? '' : 's'} refused the canary write (${installed.map((a) => a.label).join(', ')}).` };
  const named = failing.map((a) => `${a.label} (${a.verdict})`).join(', ');
  return { level: 'warning', text: `Intent Governor: ${failing.length} of ${installed.length} installed agent door${installed.length === 1 ? '' : 's'} do not refuse: ${named}.` };
}
