import * as vscode from 'vscode';
import { describeVerification, verifyWorkspaceLogs, type LogVerification } from '../../core/trace/workspaceVerify';
import { showNoFolderMessage, type GovernedFolder } from '../governedFolder';
import { traceViewText } from './traceView';

/**
 * Show Agent Trace opens a read-only table of the records (the raw JSONL is one long canonical JSON object
 * per line, unreadable for a human, and an editable copy of a tamper-evident log invites an accidental
 * save that breaks its chain). Verify Agent Trace checks both logs' hash chains and anchors.
 */
export function registerTraceCommands(governed: GovernedFolder | undefined): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('intentGovernor.showTrace', async () => {
      if (!governed) return showNoFolderMessage();
      const text = await traceViewText(governed.services.workspace.root);
      const uri = governed.documents.set('/trace/Agent Trace.txt', text);
      await vscode.window.showTextDocument(uri, { preview: false });
      return uri;
    }),
    vscode.commands.registerCommand('intentGovernor.verifyTrace', async () => {
      if (!governed) return showNoFolderMessage();
      const results = await verifyWorkspaceLogs(governed.services.workspace.root, governed.anchors);
      reportVerification(governed, results);
      return results;
    }),
  ];
}

/** Info when verified, merged or empty; a modal error naming the log and line when tampered. Not awaited: the command returns the results. */
function reportVerification(governed: GovernedFolder, results: LogVerification[]): void {
  const lines = results.map(({ log, result, anchorMovedByGit }) => `${log}: ${describeVerification(result, anchorMovedByGit)}`);
  for (const line of lines) governed.log.info(`verify: ${line}`);
  const tampered = results.find(({ result }) => result.status === 'tampered');
  if (tampered) {
    const title = `${tampered.log} was tampered with at line ${tampered.result.firstBadLine}.`;
    const detail = `${lines.join('\n')}\n\nRecords were changed, removed or reordered after they were written. Restore the log from version control, or ask who edited it.`;
    void vscode.window.showErrorMessage(title, { modal: true, detail });
    return;
  }
  void vscode.window.showInformationMessage(`Agent Trace ${lines.join(' · ')}`);
}
