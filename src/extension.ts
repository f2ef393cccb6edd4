import * as vscode from 'vscode';

/** Activation only wires: the log channel first, everything disposable into context.subscriptions. */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Intent Governor', { log: true });
  context.subscriptions.push(log);
  log.info('Intent Governor activated');
}

export function deactivate(): void {}
