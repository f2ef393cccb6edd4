import * as vscode from 'vscode';
import { INTENTS_FILE_RELATIVE } from '../../core/intents/fileIntentSource';

/** Calls `onChange` whenever the intents file is created, changed or deleted (by a human, an agent or git). */
export function watchIntentsFile(folder: vscode.WorkspaceFolder, onChange: () => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, INTENTS_FILE_RELATIVE));
  const subscriptions = [watcher.onDidCreate(onChange), watcher.onDidChange(onChange), watcher.onDidDelete(onChange)];
  return vscode.Disposable.from(watcher, ...subscriptions);
}
