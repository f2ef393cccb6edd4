import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type RequestId, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { GovernedResult } from '../flow/callRequest';
import type { Governor } from '../governor';
import type { ToolDefinition } from '../tools/toolDefinition';

export interface GovernedMcpServerOptions {
  name: string;
  version: string;
  /** The governance session this MCP session is (one per transport session). */
  sessionId: string;
  /**
   * Aborted when the transport knows the client is gone though the protocol said nothing (an HTTP client that
   * hung up): the answer could never be delivered, so the call is cancelled like on notifications/cancelled.
   */
  clientGone?: (requestId: RequestId) => AbortSignal | undefined;
  /** Hears of each tool call until it settles, so the door can wait for refusals to be logged before it stops. */
  track?: (call: Promise<unknown>) => void;
  /** Tools beside the governed ones (the resident governor's hook tool), answered by their own handler. */
  extraTools?: ExtraTool[];
  /** Fire SessionStart/SessionEnd at the user hooks (default); off where the agent's own hooks send them. */
  lifecycleHooks?: boolean;
}

/** A tool the server offers that is not a governed tool: it answers agents' hook runners, not models. */
export interface ExtraTool {
  tool: Tool;
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

/** How an MCP client sees one governed tool: the same JSON schema every door uses, with behaviour hints. */
export function toMcpTool(definition: ToolDefinition): Tool {
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: definition.inputSchema as Tool['inputSchema'],
    annotations: {
      title: definition.title,
      readOnlyHint: definition.mutation === 'none',
      destructiveHint: definition.mutation === 'delete' || definition.mutation === 'command',
      idempotentHint: definition.mutation === 'none',
      openWorldHint: false,
    },
  };
}

/** A governed result as MCP content: text the model reads; refusals are `isError` with the tool_error JSON. */
export function toMcpResult(result: GovernedResult): CallToolResult {
  const context = result.context.map((text) => ({ type: 'text' as const, text }));
  if (result.ok) return { content: [{ type: 'text', text: result.output.text }, ...context] };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(result.error, null, 2) }, ...context] };
}

/**
 * An MCP server whose every tool call goes through the Governor. Transport-agnostic: the CLI connects it to
 * stdio, the extension host to Streamable HTTP.
 */
export function createGovernedMcpServer(governor: Governor, options: GovernedMcpServerOptions): Server {
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Every change goes through Intent Governor. Call list_intents, then select_active_intent before changing anything; read_file before editing and pass its content_hash as expected_content_hash.',
    },
  );
  // The session's start and end reach the user hooks (SessionStart/SessionEnd), tracked like calls so a door waits for them.
  const lifecycle = (event: 'SessionStart' | 'SessionEnd') => {
    const fields = event === 'SessionStart' ? { source: 'startup' } : { reason: 'other' };
    const fired = governor.userHooks
      .fire({ event, sessionKey: options.sessionId, sessionId: options.sessionId, agent: { name: server.getClientVersion()?.name ?? 'mcp-client' }, cwd: governor.services.workspace.root, fields, matchValue: Object.values(fields)[0] })
      .catch((error: unknown) => governor.services.logger.error(`${event} hooks: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => event === 'SessionEnd' && governor.userHooks.endSession(options.sessionId));
    options.track?.(fired);
    return fired;
  };
  // Calls wait for the session's SessionStart hooks, as an agent's own hook runner runs them before anything else.
  let started: Promise<unknown> = Promise.resolve();
  server.oninitialized = () => {
    // A connected agent is live before its first call: the Agent Sessions view lists it from here.
    governor.services.sessions.activity.opened(options.sessionId, server.getClientVersion()?.name ?? 'mcp-client');
    if (options.lifecycleHooks !== false) started = lifecycle('SessionStart');
  };
  if (options.lifecycleHooks !== false) server.onclose = () => lifecycle('SessionEnd');
  const extras = new Map((options.extraTools ?? []).map((extra) => [extra.tool.name, extra]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...governor.tools().map(toMcpTool), ...[...extras.values()].map((e) => e.tool)] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const client = server.getClientVersion();
    // The SDK aborts extra.signal on notifications/cancelled (a client timeout or AbortSignal) and when the
    // transport closes; a call its client gave up on must not go on to change anything.
    const gone = options.clientGone?.(extra.requestId);
    const signal = gone ? AbortSignal.any([extra.signal, gone]) : extra.signal;
    await started;
    const own = extras.get(request.params.name);
    if (own) {
      const answered = own.call(request.params.arguments ?? {}, signal);
      options.track?.(answered);
      return answered;
    }
    const call = governor.run(
      {
        tool: request.params.name,
        input: request.params.arguments ?? {},
        session_id: options.sessionId,
        agent: { name: client?.name ?? 'mcp-client' },
      },
      { mode: 'execute', signal },
    );
    options.track?.(call);
    return toMcpResult(await call);
  });
  return server;
}
