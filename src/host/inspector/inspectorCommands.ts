import * as vscode from 'vscode';
import { BlameDecorations } from '../trace/blameDecorations';
import { showNoFolderMessage, type GovernedFolder } from '../governedFolder';
import { InspectorModel } from './inspectorModel';
import { INSPECTOR_VIEW_TYPE, InspectorPanel } from './inspectorPanel';

/**
 * Open Trace Inspector (optionally on one record: blame hovers pass `{recordId}`; or on one intent's timeline:
 * the Intents view passes `{intent}`), Toggle Intent Blame, the panel serializer (an open inspector comes back
 * after a window reload), and the model and decorations they share (`shared`: a model the Intents view counts
 * from too; disposed here either way). In an idle window (no folder) the commands exist and say a folder is needed.
 */
export function registerInspector(governed: GovernedFolder | undefined, extensionUri: vscode.Uri, shared?: InspectorModel): vscode.Disposable[] {
  const root = governed?.services.workspace.root;
  const model = shared ?? (governed && root ? new InspectorModel(governed.folder, root, governed.log) : undefined);
  const blame = model && root ? new BlameDecorations(root, model) : undefined;
  const disposables: vscode.Disposable[] = [
    vscode.commands.registerCommand('intentGovernor.openInspector', (target?: { recordId?: string; intent?: string }) => {
      if (!governed || !model) return showNoFolderMessage();
      const string = (value: unknown) => (typeof value === 'string' ? value : undefined);
      InspectorPanel.show(governed, model, extensionUri, string(target?.recordId), string(target?.intent));
      return true;
    }),
    vscode.commands.registerCommand('intentGovernor.toggleBlame', () => {
      if (!blame) return showNoFolderMessage();
      const on = blame.toggle();
      void vscode.window.setStatusBarMessage(`Intent blame ${on ? 'on' : 'off'}`, 3_000);
      return on;
    }),
  ];
  if (!governed || !model || !blame) return disposables;
  return [
    model,
    blame,
    ...disposables,
    vscode.window.registerWebviewPanelSerializer(INSPECTOR_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => {
        InspectorPanel.revive(panel, governed, model, extensionUri);
      },
    }),
    { dispose: () => InspectorPanel.active?.dispose() },
  ];
}
