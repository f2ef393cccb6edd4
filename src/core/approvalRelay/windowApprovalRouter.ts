import { randomBytes } from 'node:crypto';
import type { ApprovalDecision, ApprovalRequest, ApproveOptions, Approver } from '../approval/approver';
import { cancelledDecision } from '../approval/cancellation';
import type { Logger } from '../logger';
import { toolError } from '../toolError';
import type { RelayEvent } from './relayProtocol';

/** Another window of the workspace, as the router reaches it: a stream of events. */
export interface RemoteWindow {
  send(event: RelayEvent): void;
}

/** The window the router runs in: its own modal approver and a way to show a notice. */
export interface LocalWindow {
  id: string;
  approver: Approver;
  notice(message: string): void;
}

interface WindowState {
  id: string;
  remote?: RemoteWindow;
  focused: boolean;
  /** Order of the last focus gain; 0 = never focused. */
  focusedAt: number;
}

/** A request shown in another window, waiting for its answer. */
interface Remote {
  windowId: string;
  /** 'gone': the window left before answering. */
  settle(decision: ApprovalDecision | 'gone'): void;
}

/**
 * The approver of the window that serves a workspace: each request goes to the window the human uses (the
 * focused one, else the one focused last), and the other windows get a notice. That window's own approver
 * (the modal queue) asks; the answer comes back here. A window that goes away before answering hands its
 * requests on to another window, the serving one last; a cancelled request is withdrawn where it is shown.
 * Anything but an explicit approval from a window is a rejection.
 */
export class WindowApprovalRouter implements Approver {
  readonly interactive = true;
  private readonly windows = new Map<string, WindowState>();
  private readonly remote = new Map<string, Remote>();
  private focusCounter = 0;

  constructor(
    private readonly local: LocalWindow,
    private readonly logger: Logger,
  ) {
    this.windows.set(local.id, { id: local.id, focused: false, focusedAt: 0 });
  }

  /** A window connected; returns its detach, which re-routes whatever it was asked and never answered. */
  attach(id: string, window: RemoteWindow, focused: boolean): () => void {
    this.detach(id); // a reconnect replaces the old stream
    const state: WindowState = { id, remote: window, focused: false, focusedAt: 0 };
    this.windows.set(id, state);
    if (focused) this.focus(id, true);
    return () => {
      if (this.windows.get(id) === state) this.detach(id);
    };
  }

  focus(id: string, focused: boolean): void {
    const state = this.windows.get(id);
    if (!state) return;
    state.focused = focused;
    if (focused) state.focusedAt = ++this.focusCounter;
  }

  /** The answer from window `windowId`; false when it was not that window's question (or no longer is). */
  answer(windowId: string, id: string, decision: ApprovalDecision): boolean {
    const pending = this.remote.get(id);
    if (!pending || pending.windowId !== windowId) return false;
    this.remote.delete(id);
    pending.settle(decision);
    return true;
  }

  /** Sends `event` to every attached window (their Agent Sessions views follow this window's sessions). */
  broadcast(event: RelayEvent): void {
    for (const state of this.windows.values()) {
      try {
        state.remote?.send(event);
      } catch {
        // A window whose stream broke is detached by its own close handler.
      }
    }
  }

  /** The window a new request goes to now: focused first (the latest focus wins), else the last focused, else this one. */
  target(excluding: ReadonlySet<string> = new Set()): string {
    let best: WindowState | undefined;
    for (const state of this.windows.values()) {
      if (excluding.has(state.id)) continue;
      if (!best || rank(state) > rank(best)) best = state;
    }
    return best?.id ?? this.local.id;
  }

  approve(request: ApprovalRequest, options: ApproveOptions = {}): Promise<ApprovalDecision> {
    return this.route(request, options.signal, new Set());
  }

  private route(request: ApprovalRequest, signal: AbortSignal | undefined, tried: Set<string>): Promise<ApprovalDecision> {
    if (signal?.aborted) return Promise.resolve(cancelledDecision(request.tool));
    const targetId = this.target(tried);
    if (tried.has(targetId)) return Promise.resolve(noWindowLeft(request));
    this.tellOthers(targetId, request);
    const target = this.windows.get(targetId);
    if (!target?.remote) return this.local.approver.approve(request, { signal });
    return this.askRemote(targetId, target.remote, request, signal).then((answer) => {
      if (answer !== 'gone') return answer;
      // That window closed before answering: ask another one; the question is not answered by its absence.
      this.logger.warn(`the window that was asked to approve ${request.tool} went away; asking another window`);
      tried.add(targetId);
      return this.route(request, signal, tried);
    });
  }

  private askRemote(windowId: string, window: RemoteWindow, request: ApprovalRequest, signal: AbortSignal | undefined): Promise<ApprovalDecision | 'gone'> {
    const id = randomBytes(16).toString('hex');
    return new Promise<ApprovalDecision | 'gone'>((resolve) => {
      const onAbort = () => {
        if (!this.remote.delete(id)) return;
        window.send({ type: 'cancel', id });
        resolve(cancelledDecision(request.tool));
      };
      this.remote.set(id, {
        windowId,
        settle: (decision) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        window.send({ type: 'ask', id, request });
      } catch {
        this.remote.delete(id);
        signal?.removeEventListener('abort', onAbort);
        resolve('gone');
      }
    });
  }

  private detach(id: string): void {
    if (id === this.local.id || !this.windows.delete(id)) return;
    for (const [requestId, pending] of [...this.remote]) {
      if (pending.windowId !== id) continue;
      this.remote.delete(requestId);
      pending.settle('gone');
    }
  }

  private tellOthers(targetId: string, request: ApprovalRequest): void {
    const message = `An agent is waiting for approval in another VS Code window of this workspace: ${request.title}`;
    for (const state of this.windows.values()) {
      if (state.id === targetId) continue;
      if (state.remote) {
        try {
          state.remote.send({ type: 'notice', message });
        } catch {
          // A window whose stream broke is detached by its own close handler.
        }
      } else this.local.notice(message);
    }
  }
}

function rank(state: WindowState): number {
  // Focused windows above every unfocused one; among each, the most recent focus first.
  return (state.focused ? Number.MAX_SAFE_INTEGER / 2 : 0) + state.focusedAt;
}

/** Every window was asked and left without answering: nobody decided, so the call is refused. */
function noWindowLeft(request: ApprovalRequest): ApprovalDecision {
  return {
    approved: false,
    approver: 'none',
    reason: 'no window was left to ask',
    refusal: toolError('HITL_REJECT', `Nobody could be asked to approve this ${request.tool} call: the VS Code windows that were asked closed before answering, so it was refused. Call again once a window is open.`, {
      reason: 'no_window',
    }),
  };
}
