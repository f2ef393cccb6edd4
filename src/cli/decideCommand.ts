import { Governor } from '../core/governor';
import { describeMode, modeInEffect } from '../core/approval/approvalPolicy';
import { NO_RUN_LOG } from '../core/userHooks/hookRunLog';
import { denyingApprover } from '../core/nodeServices';
import { cliServices } from './cliGovernor';
import { parseCliArgs, usageError, workspaceFrom } from './cliArgs';
import type { CliCommand } from './cliCommand';

const USAGE = `governor decide: would this tool call be allowed, and why not?

Usage: governor decide [--workspace DIR] < call.json

Reads one tool call as JSON on stdin:
  {"tool": "write_file", "input": {"path": "src/a.ts", "content": "..."}, "session_id": "s1", "intent_id": "auth-refactor"}
runs the pre-hook chain against the workspace (default: the current directory) without writing, asking
or tracing anything, and prints {"decision": "allow|deny|ask", "code": ..., "message": ..., "approval_mode": ...}.
"ask" is where VS Code would ask you: the approval mode is the extension's, read from the intent's approval:,
else intentGovernor.approval in the workspace's .vscode/settings.json, else every-change (the default), and
"approval_mode" says which decided. Exit code 0 whatever the decision; 2 when the workspace cannot be opened.
Input that cannot be read is a deny.
`;

interface DecideInput {
  tool?: unknown;
  input?: unknown;
  session_id?: unknown;
  intent_id?: unknown;
  agent?: { name?: unknown; model_id?: unknown };
}

export const decideCommand: CliCommand = {
  name: 'decide',
  summary: 'Print what the pre-hook chain would decide for one tool call (JSON on stdin)',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { workspace: { type: 'string' } });
    if (!parsed.ok) return usageError(io, 'decide', parsed.message);
    const root = await workspaceFrom(parsed.values.workspace, io, 'decide');
    if (root === undefined) return 2;
    const print = (answer: object) => io.stdout(`${JSON.stringify(answer)}\n`);
    let call: DecideInput;
    try {
      call = JSON.parse(await io.readStdin()) as DecideInput;
      if (typeof call !== 'object' || call === null || typeof call.tool !== 'string') throw new Error('expected an object with a "tool" string');
    } catch (error) {
      print({ decision: 'deny', code: 'INVALID_INPUT', message: `Could not read the tool call on stdin (${error instanceof Error ? error.message : String(error)}); expected {"tool", "input", "session_id", "intent_id"?}.` });
      return 0;
    }
    // Judging writes nothing, not even the hooks' last runs that `governor hooks list` shows.
    const services = { ...(await cliServices(root, io.env, { approver: denyingApprover })), hookRunLog: NO_RUN_LOG };
    const sessionId = typeof call.session_id === 'string' ? call.session_id : 'governor-decide';
    if (typeof call.intent_id === 'string') services.sessions.bindIntent(sessionId, call.intent_id);
    const agentName = typeof call.agent?.name === 'string' ? call.agent.name : 'governor-decide';
    const report = await new Governor(services).run({ tool: call.tool as string, input: call.input ?? {}, session_id: sessionId, agent: { name: agentName } }, { mode: 'judge' });
    const snapshot = await services.intents.load();
    const intentId = services.sessions.boundIntentId(sessionId);
    const intent = snapshot.valid ? snapshot.intents.find((candidate) => candidate.id === intentId) : undefined;
    const approvalMode = describeMode(modeInEffect(intent, services.policy));
    print({ decision: report.decision, code: report.code ?? null, message: report.message ?? null, approval_mode: approvalMode, ...(report.hook ? { hook: report.hook } : {}) });
    return 0;
  },
};
