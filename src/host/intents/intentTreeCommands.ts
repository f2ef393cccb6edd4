import * as vscode from 'vscode';
import type { FileIntentSource } from '../../core/intents/fileIntentSource';
import { INTENT_STATUSES, type IntentStatus } from '../../core/intents/intent';
import { parseGlobList, scopeInputProblem } from '../../core/intents/intentsFileEdit';
import type { Result } from '../../core/toolError';
import { showNoFolderMessage, type GovernedFolder } from '../governedFolder';
import type { InspectorModel } from '../inspector/inspectorModel';
import { IntentsTree, INTENTS_VIEW_ID, type IntentRow, type IntentsNode } from './intentsTree';
import { runNewIntent } from './newIntentCommand';

export interface IntentsViewParts {
  governed: GovernedFolder;
  /** The concrete source: the view writes new intents and scopes through it. */
  intents: FileIntentSource;
  /** Shared with the inspector, so the logs are indexed once. */
  inspector: InspectorModel;
}

/** What the Intents view shows, for the extension API; empty in an idle window. */
export type IntentsViewRows = () => Promise<IntentRow[]>;

const STATUS_HELP: Record<IntentStatus, string> = {
  PLANNED: 'listed; no agent may write under it yet',
  IN_PROGRESS: 'agents may write inside its scope',
  BLOCKED: 'paused; writes refused until it is IN_PROGRESS again',
  DONE: 'finished; writes refused',
  ABANDONED: 'dropped; writes refused',
};

/**
 * The Intents view and its commands: New Intent…, Select for Me, Set Status…, Edit Scope…, Show in Trace
 * Inspector. Each takes the tree node it was invoked on, or an intent id (keybindings, links, tests). In an idle
 * window the view is empty (its welcome content asks for a folder) and the commands say a folder is needed.
 */
export function registerIntentsView(parts: IntentsViewParts | undefined): { disposables: vscode.Disposable[]; rows: IntentsViewRows } {
  const tree = parts && new IntentsTree(parts.intents, parts.governed.services.sessions, parts.inspector, parts.governed.display.onDidRefresh);
  const empty: vscode.TreeDataProvider<never> = { getChildren: () => [], getTreeItem: (node) => node };
  const view = tree && vscode.window.createTreeView(INTENTS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const write = async (what: string, result: Promise<Result<unknown>>) => {
    const written = await result;
    if (!written.ok) {
      void vscode.window.showErrorMessage(written.error.message);
      return false;
    }
    await parts?.governed.display.reload();
    parts?.governed.log.info(what);
    return true;
  };
  const disposables: vscode.Disposable[] = [
    ...(tree && view ? [tree, view] : [vscode.window.registerTreeDataProvider(INTENTS_VIEW_ID, empty)]),
    vscode.commands.registerCommand('intentGovernor.newIntent', async (clicked?: unknown, selection?: unknown) => {
      if (!parts || !tree) return showNoFolderMessage();
      const id = await runNewIntent(parts.governed, parts.intents, explorerSelection(clicked, selection));
      const node = id === undefined ? undefined : (await tree.getChildren(), tree.nodeFor(id));
      if (node && view?.visible) await view.reveal(node, { select: true, focus: false }).then(undefined, () => undefined);
      return id;
    }),
    vscode.commands.registerCommand('intentGovernor.selectIntentForMe', (target?: unknown) => {
      if (!parts) return showNoFolderMessage();
      const id = intentIdOf(target);
      return id === undefined ? vscode.commands.executeCommand('intentGovernor.selectIntent') : vscode.commands.executeCommand('intentGovernor.selectIntent', id);
    }),
    vscode.commands.registerCommand('intentGovernor.setIntentStatus', async (target?: unknown, status?: unknown) => {
      if (!parts || !tree) return showNoFolderMessage();
      const row = await rowOf(tree, target);
      if (!row) return false;
      const chosen = isStatus(status) ? status : await pickStatus(row);
      if (chosen === undefined || chosen === row.status) return false;
      return write(`intent ${row.id}: status ${row.status} → ${chosen}`, parts.intents.setStatus(row.id, chosen));
    }),
    vscode.commands.registerCommand('intentGovernor.editIntentScope', async (target?: unknown) => {
      if (!parts || !tree) return showNoFolderMessage();
      const row = await rowOf(tree, target);
      if (!row) return false;
      const typed = await vscode.window.showInputBox({
        title: `Edit Scope of ${row.id}`,
        prompt: 'Workspace-relative globs agents may write under this intent (commas or spaces between them; empty: none)',
        value: row.scope.join(', '),
        placeHolder: 'src/feature/**, test/feature/**',
        ignoreFocusOut: true,
        validateInput: (value) => scopeInputProblem(parseGlobList(value)),
      });
      if (typed === undefined) return false;
      return write(`intent ${row.id}: owned_scope set to ${typed}`, parts.intents.setScope(row.id, parseGlobList(typed)));
    }),
    vscode.commands.registerCommand('intentGovernor.showIntentInInspector', (target?: unknown) => {
      if (!parts) return showNoFolderMessage();
      const id = intentIdOf(target);
      return vscode.commands.executeCommand('intentGovernor.openInspector', id === undefined ? undefined : { intent: id });
    }),
  ];
  return { disposables, rows: async () => (tree ? tree.rows() : []) };
}

function intentIdOf(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  const node = target as IntentsNode | undefined;
  if (node?.kind === 'intent' || node?.kind === 'activity') return node.row.id;
  if (node?.kind === 'scope') return node.intentId;
  return undefined;
}

/** The intent a command was invoked on, as the view shows it now; from the palette, picked from the plan. */
async function rowOf(tree: IntentsTree, target: unknown): Promise<IntentRow | undefined> {
  const rows = await tree.rows();
  const id = intentIdOf(target);
  if (id !== undefined) {
    const row = rows.find((r) => r.id === id);
    if (!row) void vscode.window.showErrorMessage(`Intent '${id}' is no longer in the intents file; it was renamed or removed.`);
    return row;
  }
  if (rows.length === 0) {
    void vscode.window.showInformationMessage('The plan has no intents yet; add one with New Intent….');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    rows.map((row) => ({ label: row.id, description: row.name, detail: row.status, row })),
    { placeHolder: 'Which intent?' },
  );
  return picked?.row;
}

async function pickStatus(row: IntentRow): Promise<IntentStatus | undefined> {
  const items = INTENT_STATUSES.map((status) => ({
    label: status,
    description: status === row.status ? `current · ${STATUS_HELP[status]}` : STATUS_HELP[status],
    status,
  }));
  const picked = await vscode.window.showQuickPick(items, { title: `Set Status of ${row.id}`, placeHolder: `${row.name} is ${row.status}` });
  return picked?.status;
}

function isStatus(value: unknown): value is IntentStatus {
  return typeof value === 'string' && (INTENT_STATUSES as readonly string[]).includes(value);
}

/** The Explorer passes the clicked resource and the whole selection; anything else (the view's title button) is none. */
function explorerSelection(clicked: unknown, selection: unknown): vscode.Uri[] {
  if (Array.isArray(selection) && selection.every((u) => u instanceof vscode.Uri)) return selection as vscode.Uri[];
  return clicked instanceof vscode.Uri ? [clicked] : [];
}
