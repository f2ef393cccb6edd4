import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Governor } from '../core/governor';
import { createNodeServices, denyingApprover } from '../core/nodeServices';
import type { CliCommand } from './cliCommand';

const USAGE = `governor decide: would this tool call be allowed, and why not?

Usage: governor decide [--workspace DIR] < call.json

Reads one tool call as JSON on stdin:
  {"tool": "write_file", "input": {"path": "src/a.ts", "content": "..."}, "session_id": "s1", "intent_id": "auth-refactor"}
runs the pre-hook chain against the workspace (default: the current directory) without writing, asking
or tracing anything, and prints {"decision": "allow|deny|ask", "code": ..., "message": ...}. Exit code 0
whatever the decision; 2 when the workspace cannot be opened. Input that cannot be read is a deny.
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
    const { values } = parseArgs({ args, options: { workspace: { type: 'string' } }, allowPositionals: false });
    const root = resolve(io.cwd, values.workspace ?? '.');
    if (!(await stat(root).catch(() => undefined))?.isDirectory()) {
      io.stderr(`governor decide: workspace '${root}' is not a directory. Pass --workspace DIR.\n`);
      return 2;
    }
    const print = (answer: object) => io.stdout(`${JSON.stringify(answer)}\n`);
    let parsed: DecideInput;
    try {
      parsed = JSON.parse(await io.readStdin()) as DecideInput;
      if (typeof parsed !== 'object' || parsed === null || typeof parsed.tool !== 'string') throw new Error('expected an object with a "tool" string');
    } catch (error) {
      print({ decision: 'deny', code: 'INVALID_INPUT', message: `Could not read the tool call on stdin (${error instanceof Error ? error.message : String(error)}); expected {"tool", "input", "session_id", "intent_id"?}.` });
      return 0;
    }
    const services = await createNodeServices({ root, approver: denyingApprover });
    const sessionId = typeof parsed.session_id === 'string' ? parsed.session_id : 'governor-decide';
    if (typeof parsed.intent_id === 'string') services.sessions.bindIntent(sessionId, parsed.intent_id);
    const agentName = typeof parsed.agent?.name === 'string' ? parsed.agent.name : 'governor-decide';
    const report = await new Governor(services).decide({ tool: parsed.tool as string, input: parsed.input ?? {}, session_id: sessionId, agent: { name: agentName } });
    print({ decision: report.decision, code: report.code ?? null, message: report.message ?? null, ...(report.hook ? { hook: report.hook } : {}) });
    return 0;
  },
};
