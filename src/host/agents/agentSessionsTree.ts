import * as vscode from 'vscode';
import type { StandingApproval } from '../../core/approval/standingApprovals';
import type { LiveSession } from '../../core/sessions/sessionActivity';
import type { WorkspaceSessions } from '../../core/sessions/workspaceSessions';
import { bindingText, bindingTooltip, callText, sessionDescription, standingText } from './agentSessionText';

export const SESSIONS_VIEW_ID = 'intentGovernor.sessions';

export type SessionsNode =
  | { kind: 'session'; session: LiveSession }
  | { kind: 'intent'; session: LiveSession }
  | { kind: 'lastCall'; session: LiveSession }
  | { kind: 'pending'; session: LiveSession }
  | { kind: 'standing'; session: LiveSession; approval: StandingApproval };

const REFRESH_DELAY_MS = 150;

const DECISION_ICONS: Record<string, string> = { allowed: 'pass', denied: 'error', asked: 'question', failed: 'warning' };

/**
 * The Agent Sessions view: every live session from every door with its agent, door, bound intent, last call
 * and decision, pending approvals and standing approvals, including those of the window that serves the folder
 * when this one does not. Redraws whenever any of them change.
 */
export class AgentSessionsTree implements vscode.TreeDataProvider<SessionsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly stop: () => void;
  private pending: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly sessions: WorkspaceSessions,
    /** The workspace root, so agents' absolute paths show relative to it. */
    private readonly root?: string,
  ) {
    this.stop = sessions.onDidChange(() => this.refreshSoon());
  }

  /** A busy agent reports many calls a second: one redraw per burst keeps the view readable and clickable. */
  private refreshSoon(): void {
    if (this.pending !== undefined) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.changed.fire();
    }, REFRESH_DELAY_MS);
  }

  getChildren(node?: SessionsNode): SessionsNode[] {
    if (!node) return this.sessions.list().map((session) => ({ kind: 'session', session }));
    if (node.kind !== 'session') return [];
    const { session } = node;
    const children: SessionsNode[] = [{ kind: 'intent', session }];
    if (session.lastCall) children.push({ kind: 'lastCall', session });
    if (session.pendingApprovals > 0) children.push({ kind: 'pending', session });
    for (const approval of this.sessions.standing().filter((a) => a.session === session.id)) children.push({ kind: 'standing', session, approval });
    return children;
  }

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    const { session } = node;
    switch (node.kind) {
      case 'session': {
        const item = new vscode.TreeItem(session.agent, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `session:${session.id}`;
        item.description = sessionDescription(session);
        item.tooltip = `${session.agent} through ${session.door.label}, session ${session.id}\nStarted ${session.started}; ${session.calls} call${session.calls === 1 ? '' : 's'}, last ${session.lastActive}`;
        item.iconPath = new vscode.ThemeIcon(session.pendingApprovals > 0 ? 'bell-dot' : 'hubot');
        item.contextValue = 'agentSession';
        return item;
      }
      case 'intent': {
        const item = new vscode.TreeItem(`intent: ${bindingText(session.intent)}`);
        item.id = `session:${session.id}:intent`;
        item.tooltip = bindingTooltip(session.intent);
        item.iconPath = new vscode.ThemeIcon(session.intent.kind === 'unbound' ? 'debug-disconnect' : 'target');
        return item;
      }
      case 'lastCall': {
        const call = session.lastCall!;
        const item = new vscode.TreeItem(`last: ${callText(call, this.root)}`);
        item.id = `session:${session.id}:last`;
        item.description = `${session.calls} call${session.calls === 1 ? '' : 's'}`;
        item.tooltip = `${call.at}: ${callText(call, this.root)}. Show Calls lists the session's recent calls.`;
        item.iconPath = new vscode.ThemeIcon(DECISION_ICONS[call.decision] ?? 'circle-outline');
        item.command = { command: 'intentGovernor.sessions.showCalls', title: 'Show Calls', arguments: [session.id] };
        return item;
      }
      case 'pending': {
        const item = new vscode.TreeItem(`${session.pendingApprovals} approval${session.pendingApprovals === 1 ? '' : 's'} pending`);
        item.id = `session:${session.id}:pending`;
        item.tooltip = 'The agent waits for your answer in the approval dialog.';
        item.iconPath = new vscode.ThemeIcon('bell-dot');
        return item;
      }
      case 'standing': {
        const item = new vscode.TreeItem(standingText(node.approval));
        item.id = `session:${session.id}:standing:${node.approval.intent}`;
        item.description = `by ${node.approval.granted_by}`;
        item.tooltip = `Granted ${node.approval.granted_at} by ${node.approval.granted_by}: this session's writes and edits inside ${node.approval.intent}'s scope are approved without asking. Revoke to be asked again.`;
        item.iconPath = new vscode.ThemeIcon('unlock');
        item.contextValue = 'standingApproval';
        return item;
      }
    }
  }

  dispose(): void {
    if (this.pending !== undefined) clearTimeout(this.pending);
    this.stop();
    this.changed.dispose();
  }
}
