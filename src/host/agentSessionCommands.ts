import * as vscode from 'vscode';
import type { LiveSession } from '../core/sessions/sessionActivity';
import { AgentSessionsTree, SESSIONS_VIEW_ID, type SessionsNode } from './agentSessionsTree';
import { callText, targetText } from './agentSessionText';
import { showNoFolderMessage, type GovernedFolder } from './governedFolder';

const DECISION_ICONS: Record<string, string> = { allowed: '$(pass)', denied: '$(error)', asked: '$(question)', failed: '$(warning)' };

/**
 * The Agent Sessions view and its actions: Show Calls, Unbind Intent, End Session, Revoke (a standing approval).
 * Each command takes the view's node or a session id. In an idle window (no folder) the view is empty and the
 * commands say a folder is needed.
 */
export function registerAgentSessionsView(governed: GovernedFolder | undefined): vscode.Disposable[] {
  if (!governed) {
    const empty: vscode.TreeDataProvider<never> = { getChildren: () => [], getTreeItem: (node) => node };
    return [
      vscode.window.registerTreeDataProvider(SESSIONS_VIEW_ID, empty),
      ...['showCalls', 'unbindIntent', 'endSession', 'revokeStandingApproval'].map((name) => vscode.commands.registerCommand(`intentGovernor.sessions.${name}`, () => showNoFolderMessage())),
    ];
  }
  const { services, log } = governed;
  const { sessions, standingApprovals } = services;
  const root = services.workspace.root;
  const tree = new AgentSessionsTree(sessions, standingApprovals, root);
  const view = vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: tree });
  const sessionOf = (target: unknown): LiveSession | undefined => {
    const id = typeof target === 'string' ? target : isNode(target) ? target.session.id : undefined;
    const session = id === undefined ? undefined : sessions.activity.get(id);
    if (!session) void vscode.window.showWarningMessage('That agent session has ended. The Agent Sessions view lists the live ones.');
    return session;
  };
  return [
    tree,
    view,
    vscode.commands.registerCommand('intentGovernor.sessions.showCalls', async (target?: unknown) => {
      const session = sessionOf(target);
      if (!session) return undefined;
      const items = [...session.recent].reverse().map((call) => ({
        label: `${DECISION_ICONS[call.decision] ?? ''} ${call.target === undefined ? call.tool : `${call.tool} ${targetText(call.target, root)}`}`,
        description: callText(call).slice(callText(call).lastIndexOf(': ') + 2),
        detail: call.at,
      }));
      return vscode.window.showQuickPick(items, { title: `Recent calls of ${session.agent} (${session.door.label}), newest first`, placeHolder: `${session.calls} calls in all; the trace and the governance log keep every change and refusal` });
    }),
    vscode.commands.registerCommand('intentGovernor.sessions.unbindIntent', (target?: unknown) => {
      const session = sessionOf(target);
      if (!session) return false;
      sessions.unbind(session.id);
      // A standing approval belonged to the binding that ended: selecting the intent again asks again.
      standingApprovals.revoke(session.id);
      log.info(`unbound ${session.agent}'s session ${session.id}: its next change is refused until it selects an intent`);
      return true;
    }),
    vscode.commands.registerCommand('intentGovernor.sessions.endSession', (target?: unknown) => {
      const session = sessionOf(target);
      if (!session) return false;
      sessions.end(session.id);
      standingApprovals.revoke(session.id);
      log.info(`ended ${session.agent}'s session ${session.id}: its reads and binding are forgotten, its next change needs a fresh read`);
      return true;
    }),
    vscode.commands.registerCommand('intentGovernor.sessions.revokeStandingApproval', (target?: unknown) => {
      if (!isNode(target) || target.kind !== 'standing') return false;
      const revoked = standingApprovals.revoke(target.approval.session, target.approval.intent);
      if (revoked) log.info(`revoked the standing approval of ${target.approval.session} in ${target.approval.intent}`);
      return revoked;
    }),
  ];
}

function isNode(value: unknown): value is SessionsNode {
  return typeof value === 'object' && value !== null && 'kind' in value && 'session' in value;
}
