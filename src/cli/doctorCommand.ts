import { runDoctor } from '../core/agents/doctor/doctor';
import { doctorReportText } from '../core/agents/doctor/doctorReport';
import { nodeDoctorPorts } from '../core/agents/doctor/nodeDoctorPorts';
import { governorChecks } from '../core/agents/doctor/governorChecks';
import { parseCliArgs, usageError, workspaceFrom } from './cliArgs';
import type { CliCommand } from './cliCommand';

const USAGE = `governor doctor: prove that every installed agent door refuses what it must

Usage: governor doctor [--workspace DIR] [--json] [--timeout-ms N]

For each agent whose Intent Governor hooks are installed in the workspace (VS Code's agent, Claude Code, Cursor,
Gemini CLI, Codex CLI, GitHub Copilot CLI, OpenCode, Cline), sends a canary write of a file no intent owns
through the agent's real installed door, exactly as the agent would: the pre-tool command found in its hook file
run with the agent's shell in the workspace with the agent's payload on stdin, Claude Code's resident governor
(mcp_tool hooks) started from ~/.claude.json and called as Claude Code calls it, OpenCode's plugin loaded and
its tool.execute.before called, Cline's PreToolUse.sh run. The reply is read by that agent's own rules. Nothing
is written: only the pre-tool check runs. Each refusal is recorded in .orchestration/governance_log.jsonl under
the session <agent>:doctor:<uuid>.

Per agent: its door, hook file, version (\`<agent> --version\`; "not found" when it is not on PATH) and verdict:
  enforced       the canary was refused by the governor
  trace-only     the agent's hooks cannot refuse a call
  broken         the canary was let through, the hook failed or timed out without refusing, it refused without
                 reaching the governor (so every call is refused), or its file cannot be read; with the fix
  not installed  with the command that installs it

  --workspace DIR   the workspace (default: the current directory)
  --json            print the report as JSON: {workspace, canary, agents: [...], checks: [...], notes, ok}
  --timeout-ms N    give each door N ms to answer (default 30000)

Checks: whether run_command's commands are confined by the operating system here (bubblewrap on Linux,
sandbox-exec on macOS), or, without one, that the text policy is the only layer and how to install one; the
administrator's managed file (managed policy) and each rule it sets; the OpenTelemetry export (where to, and
the records dropped or not taken by the collector, as every process on this machine reported them); the logs in
git: it writes .orchestration/.gitattributes (both logs merge=union eol=lf) and .orchestration/.gitignore (lock
folders, pending entries, temp files, the intent map) when lines are missing, and warns about committed scratch.

It runs the hook commands in the workspace's hook files: run it in a workspace you trust.
Exit 0: every installed door refuses; 1: an installed door does not; 2: usage.
`;

export const doctorCommand: CliCommand = {
  name: 'doctor',
  summary: "Send a canary write through every installed agent hook and report which ones refuse it",
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { workspace: { type: 'string' }, json: { type: 'boolean' }, 'timeout-ms': { type: 'string' } });
    if (!parsed.ok) return usageError(io, 'doctor', parsed.message);
    const timeout = parsed.values['timeout-ms'];
    const timeoutMs = timeout === undefined ? undefined : Number(timeout);
    if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs < 100)) return usageError(io, 'doctor', '--timeout-ms must be an integer of at least 100');
    const root = await workspaceFrom(parsed.values.workspace, io, 'doctor');
    if (root === undefined) return 2;
    const report = await runDoctor(root, nodeDoctorPorts, { env: io.env, checks: governorChecks(io.env), ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    io.stdout(parsed.values.json === true ? `${JSON.stringify(report, null, 2)}\n` : doctorReportText(report));
    return report.ok ? 0 : 1;
  },
};
