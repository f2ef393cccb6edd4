import * as vscode from 'vscode';
import type { IntentStatus } from './intentStatus';

/** The `$(shield) <intent>` item; clicking it runs Select Active Intent. */
export class IntentStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('intentGovernor.status', vscode.StatusBarAlignment.Left, 100);

  constructor() {
    this.item.name = 'Intent Governor';
    this.item.command = 'intentGovernor.selectIntent';
  }

  get text(): string {
    return this.item.text;
  }

  show(status: IntentStatus): void {
    this.item.text = status.text;
    this.item.tooltip = status.tooltip;
    this.item.backgroundColor = status.text.startsWith('$(error)') ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
