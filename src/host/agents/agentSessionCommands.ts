import * as vscode from 'vscode';
import type { LiveSession } from '../../core/sessions/sessionActivity';
import { AgentSessionsTree, SESSIONS_VIEW_ID, type SessionsNode } from './agentSessionsTree';
import { callText, targetText } from './agentSessionText';
import { showNoFolderMessage, type GovernedFolder } from '../governedFolder';

const DECISION_ICONS: Record<string, string> = { allowed: '$(pass)', denied: '$(error)', asked: '$(question)', failed: '$(warning)' };

/**
 * The Agent Sessions view and its actions: Show Calls, Unbind Intent, End Session, Revoke (a standing approval).
 * Each command takes the view's node or a session id; an action on a session the serving window holds is sent
 * there. In an idle window (no folder) the view is empty and the commands say a folder is needed.
 */
export function registerAgentSessionsView(governed: GovernedFolder | undefined): vscode.Disposable[] {
  const tree = governed && new AgentSessionsTree(governed.agentSessions, governed.services.workspace.root);
  const empty: vscode.TreeDataProvider<never> = { getChildren: () => [], getTreeItem: (node) => node };
  // The live session an action names (its node or its id), or undefined once the human is told why not.
  const sessionOf = (target: unknown): { session: LiveSession; parts: GovernedFolder } | undefined => {
    if (!governed) return void showNoFolderMessage();
    const id = typeof target === 'string' ? target : isNode(target) ? target.session.id : undefined;
    const session = id === undefined ? undefined : governed.agentSessions.get(id);
    if (!session) void vscode.window.showWarningMessage('That agent session has ended. The Agent Sessions view lists the live ones.');
    return session && { session, parts: governed };
  };
  return [
    ...(governed && tree ? [tree, vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: tree }), sweepIdle(governed)] : [vscode.window.registerTreeDataProvider(SESSIONS_VIEW_ID, empty)]),
    vscode.commands.registerCommand('intentGovernor.sessions.showCalls', async (target?: unknown) => {
      const found = sessionOf(target);
      if (!found) return undefined;
      const { session } = found;
      const root = found.parts.services.workspace.root;
      const items = [...session.recent].reverse().map((call) => ({
        label: `${DECISION_ICONS[call.decision] ?? ''} ${call.target === undefined ? call.tool : `${call.tool} ${targetText(call.target, root)}`}`,
        description: callText(call).slice(callText(call).lastIndexOf(': ') + 2),
        detail: call.at,
      }));
      return vscode.window.showQuickPick(items, { title: `Recent calls of ${session.agent} (${session.door.label}), newest first`, placeHolder: `${session.calls} calls in all; the trace and the governance log keep every change and refusal` });
    }),
    vscode.commands.registerCommand('intentGovernor.sessions.unbindIntent', async (target?: unknown) => {
      const found = sessionOf(target);
      if (!found) return false;
      const { session, parts } = found;
      const done = await acted(parts.agentSessions.act({ action: 'unbind', session: session.id }));
      if (done) parts.log.info(`unbound ${session.agent}'s session ${session.id}: its next change is refused until it selects an intent`);
      return done;
    }),
    vscode.commands.registerCommand('intentGovernor.sessions.endSession', async (target?: unknown) => {
      const found = sessionOf(target);
      if (!found) return false;
      const { session, parts } = found;
      const done = await acted(parts.agentSessions.act({ action: 'end', session: session.id }));
      if (done) parts.log.info(`ended ${session.agent}'s session ${session.id}: its reads and binding are forgotten, its next change needs a fresh read`);
      return done;
    }),
    vscode.commands.registerCommand('intentGovernor.sessions.revokeStandingApproval', async (target?: unknown) => {
      if (!governed) return showNoFolderMessage();
      if (!isNode(target) || target.kind !== 'standing') return false;
      const { session, intent } = target.approval;
      const revoked = await acted(governed.agentSessions.act({ action: 'revoke', session, intent }));
      if (revoked) governed.log.info(`revoked the standing approval of ${session} in ${intent}`);
      return revoked;
    }),
  ];
}

/**
 * An action's outcome, told to the person when it did nothing: the session ended meanwhile, or the window that
 * serves the folder (which holds it) could not be reached.
 */
async function acted(action: Promise<boolean>): Promise<boolean> {
  const done = await action.catch((error: unknown) => {
    void vscode.window.showErrorMessage(`The window serving this folder could not be reached (${error instanceof Error ? error.message : String(error)}), so nothing changed. Try again in a moment.`);
    return undefined;
  });
  if (done === false) void vscode.window.showWarningMessage('That agent session has ended. The Agent Sessions view lists the live ones.');
  return done === true;
}

/** Sessions idle past the limit leave the view and the status bar even when nothing else happens meanwhile. */
function sweepIdle(governed: GovernedFolder): vscode.Disposable {
  const timer = setInterval(() => governed.services.sessions.activity.list(), 60_000);
  return { dispose: () => clearInterval(timer) };
}

function isNode(value: unknown): value is SessionsNode {
  return typeof value === 'object' && value !== null && 'kind' in value && 'session' in value;
}
