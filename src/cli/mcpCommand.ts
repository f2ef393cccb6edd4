import { openCliGovernor } from './cliGovernor';
import { randomUUID } from 'node:crypto';
import { Governor } from '../core/governor';
import type { Approver } from '../core/approval/approver';
import { headlessApprover } from '../core/approval/headlessRefusal';
import type { Logger } from '../core/logger';
import { MemoryBeforeStash } from '../core/bridge/beforeStash';
import { NativeToolBridge } from '../core/bridge/nativeToolBridge';
import { InflightCalls } from '../core/mcp/inflightCalls';
import { governorHome } from '../core/paths/governorHome';
import { DeclaredHooksCache } from '../core/userHooks/declaredHooks';
import { CLAUDE_CODE_DOOR } from '../core/userHooks/hookLayerFiles';
import { residentHookTool, type ResidentHookTool } from './residentHookTool';
import { readIntentsAhead, tierResidentCode } from './residentWarmStart';
import { IntentMapKeeper } from '../core/intentMap/intentMapKeeper';
import { parseCliArgs, usageError, workspaceFrom } from './cliArgs';
import type { CliCommand, CliIO } from './cliCommand';
import { TOOL_VERSION } from './toolVersion';

const USAGE = `governor mcp: the governed tools as an MCP server over stdio

Usage: governor mcp [--workspace DIR] [--approve never|always] [--agent claude [--intent ID]]

For terminal agents and CI runs with no VS Code. Every tool call goes through the same hook chain as in
the extension and is traced to .orchestration/agent_trace.jsonl (refusals to governance_log.jsonl).
Calls that need a human (deletes, destructive commands, scope expansion) are refused with HITL_REJECT,
unless --approve always is given, which approves them as "cli:--approve always".

--agent claude makes it the resident governor of one Claude Code session: beside the governed tools it offers
the hook tool that the mcp_tool hooks \`governor hooks install --agent claude\` writes call, so Claude's native
tools are judged in this process, with this session's intent (the model's select_active_intent, else --intent
or INTENT_GOVERNOR_INTENT) and read ledger, and no process is started per tool call. With VS Code running on
the workspace, the extension decides (its dialog, status bar and trace), as for the hook command.

Example client configuration (Claude Code, Cursor, Cline, Roo Code), with governor on PATH (npm link in a clone;
never npx, which fetches an unrelated package of that name from the npm registry):
  {"mcpServers": {"intent-governor": {"command": "governor", "args": ["mcp", "--workspace", "."]}}}
`;

const refuseWithoutHuman: Approver = headlessApprover(
  "To let such calls through, the person starts governor mcp with --approve always; or the agent uses VS Code's Intent Governor MCP server, which asks in a modal.",
);

const approveAlways: Approver = {
  async approve() {
    return { approved: true, approver: 'cli:--approve always' };
  },
};

/** stdout carries the protocol, so every log line goes to stderr. */
function stderrLogger(io: CliIO): Logger {
  const line = (level: string) => (message: string) => io.stderr(`[governor mcp] ${level} ${message}\n`);
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'Serve the governed tools over MCP on stdio (terminal agents, CI)',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { workspace: { type: 'string' }, approve: { type: 'string' }, agent: { type: 'string' }, intent: { type: 'string' } });
    if (!parsed.ok) return usageError(io, 'mcp', parsed.message);
    const approve = parsed.values.approve ?? 'never';
    if (approve !== 'never' && approve !== 'always') return usageError(io, 'mcp', `--approve must be 'never' or 'always', not '${String(approve)}'`);
    const agent = parsed.values.agent;
    if (agent !== undefined && agent !== 'claude') return usageError(io, 'mcp', `--agent must be 'claude', not '${String(agent)}'`);
    if (parsed.values.intent !== undefined && agent === undefined) return usageError(io, 'mcp', '--intent needs --agent claude (a governed MCP client selects its intent itself)');
    const root = await workspaceFrom(parsed.values.workspace, io, 'mcp');
    if (root === undefined) return 2;
    // Claude Code's resident governor serves a whole session's hooks, each path a few times, as `governor resident` does.
    if (agent !== undefined) tierResidentCode();
    const logger = stderrLogger(io);
    const intentMap = new IntentMapKeeper({ workspaceRoot: root, logger });
    const { governor, close } = await openCliGovernor(root, io.env, { approver: approve === 'always' ? approveAlways : refuseWithoutHuman, logger, extra: { intentMap } });
    // Loaded on demand: the MCP SDK (and its schemas) would otherwise cost every governor command, the hook
    // bridge's headless path included, tens of milliseconds at start-up.
    const { createGovernedMcpServer } = await import('../core/mcp/governedMcpServer');
    const { CappedStdioServerTransport } = await import('../core/mcp/cappedStdioTransport');
    const calls = new InflightCalls();
    const sessionId = `${agent === undefined ? 'mcp-stdio' : `${agent}-resident`}:${randomUUID()}`;
    const resident = agent === undefined ? undefined : residentGovernor(governor, sessionId, root, (parsed.values.intent as string | undefined) ?? (io.env.INTENT_GOVERNOR_INTENT || undefined), io, logger);
    const server = createGovernedMcpServer(governor, {
      name: 'intent-governor',
      version: TOOL_VERSION,
      sessionId,
      track: (call) => calls.track(call),
      ...(resident ? { extraTools: [resident], lifecycleHooks: false } : {}),
    });
    const closed = new Promise<void>((resolve) => {
      const endSession = server.onclose;
      server.onclose = () => {
        endSession?.();
        resolve();
      };
    });
    // A frame over the body cap is answered with an error and skipped, not a reason to end the session.
    await server.connect(new CappedStdioServerTransport());
    // The client closing our stdin ends the session; flush the trace before exiting.
    process.stdin.once('end', () => void server.close());
    logger.info(`serving ${root} (approve: ${approve})`);
    if (resident) readIntentsAhead(governor, logger);
    await closed;
    await resident?.close(); // native changes whose post Claude Code never sends are completed first
    await calls.settled(); // closing cancelled the calls still running: their outcomes go to the trace first
    await governor.userHooks.drain(); // background hooks (async, asyncRewake) finish before the process does
    await intentMap.flush(); // the last changes reach the intent map before the process exits
    await close();
    return 0;
  },
};

/**
 * The resident governor's hook tool: every hook event of the Claude session is judged here, under one session
 * (this server's) that the model's own MCP calls share, so its select_active_intent binds what its native
 * Write/Edit/Bash are judged under, and its Reads are the basis of its later edits.
 */
function residentGovernor(governor: Governor, sessionId: string, root: string, intent: string | undefined, io: CliIO, logger: Logger): ResidentHookTool {
  // One process serves the session's pre and post phases: what a change replaces waits in memory, not in a file.
  const bridge = new NativeToolBridge(governor, new MemoryBeforeStash(), { askHuman: false, resident: true });
  const reconciling = bridge.startReconciling(); // unref'd: it never keeps the process alive
  const sessions = governor.services.sessions;
  if (intent !== undefined) sessions.bindIntent(sessionId, intent);
  // The user hooks this door runs (Claude Code runs its own settings' hooks): the matchers must route what they need.
  const declared = new DeclaredHooksCache(root, governorHome(io.env), CLAUDE_CODE_DOOR);
  const tool = residentHookTool({
    io,
    root,
    logger,
    declared: () => declared.get(),
    // The model's pick (or --intent) also goes to a running extension, where it wins over the human's status-bar pick.
    options: (signal) => {
      let deadline: AbortSignal | undefined;
      return {
        workspace: root,
        intent: sessions.boundIntentId(sessionId),
        headless: false,
        timeoutMs: RESIDENT_TIMEOUT_MS,
        // Made only when a running extension is asked (rare here): not a timer and a combined signal on every hook call.
        get deadline() {
          return (deadline ??= AbortSignal.any([signal, AbortSignal.timeout(RESIDENT_TIMEOUT_MS)]));
        },
      };
    },
    decide: (request) => bridge.handle({ ...request, session_id: sessionId, intent_id: undefined }),
  });
  return {
    ...tool,
    close: async () => {
      reconciling.dispose();
      await tool.close();
      await bridge.close();
    },
  };
}

/** Below the hook timeout the installer gives Claude Code (120 s), like the hook command's. */
const RESIDENT_TIMEOUT_MS = 110_000;
