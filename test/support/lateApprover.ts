import { MemoryBeforeStash } from '../../src/core/bridge/beforeStash';
import { hookRoute } from '../../src/core/bridge/hookRoute';
import type { BridgeRequest } from '../../src/core/agents/common/nativeCall';
import { NativeToolBridge } from '../../src/core/bridge/nativeToolBridge';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../src/core/approval/approver';
import { startHttpMcpServer, type HttpMcpServer } from '../../src/core/mcp/httpMcpServer';
import { createHarness, type Harness } from './governorHarness';

/**
 * A human who clicks Approve only when the test says so: after the agent (or its hook) has given up. The
 * answer must never be used, whatever it is.
 */
export class LateApprover implements Approver {
  readonly interactive = true;
  readonly requests: ApprovalRequest[] = [];
  private release!: (approved: boolean) => void;
  private readonly answer = new Promise<boolean>((resolve) => (this.release = resolve));
  private shown!: () => void;
  /** Resolves once the approval dialog would be on screen. */
  readonly asked = new Promise<void>((resolve) => (this.shown = resolve));

  async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    this.requests.push(request);
    this.shown();
    return { approved: await this.answer, approver: 'late-human' };
  }

  approveNow(): void {
    this.release(true);
  }
}

/** Polls `check` until it returns a value (a record in the log, a file on disk), failing after `ms`. */
export async function eventually<T>(check: () => T | undefined, what: string, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A running extension stand-in: the HTTP server with POST /hook, a workspace with the human's intent, a late human. */
export interface LateHumanServer {
  h: Harness;
  server: HttpMcpServer;
  late: LateApprover;
  /** Lets the human answer (so no handler is left waiting), closes the server, removes the workspace. */
  close(): Promise<void>;
}

export async function startServerWithLateHuman(): Promise<LateHumanServer> {
  const h = await createHarness({ files: { 'src/auth/login.ts': 'export const login = 1;\n' } });
  h.governor.services.sessions.setDefaultIntent('auth-refactor');
  const late = new LateApprover();
  h.governor.services.approver = late;
  const bridge = new NativeToolBridge(h.governor, new MemoryBeforeStash(), { askHuman: true });
  const server = await startHttpMcpServer({ governor: h.governor, name: 'test', version: '0', logger: h.logger, routes: [hookRoute(bridge)] });
  return {
    h,
    server,
    late,
    async close() {
      late.approveNow();
      await server.close();
      await h.dispose();
    },
  };
}

/** A native destructive command (always asks a human), as Claude Code's Bash would send it. */
export function destructiveBridgeRequest(toolUseId: string): BridgeRequest {
  return { phase: 'pre', session_id: 'claude:abc123', agent: { name: 'claude-code' }, key: `claude:abc123:${toolUseId}`, calls: [{ tool: 'run_command', input: { command: 'rm -rf src/auth' } }] };
}
