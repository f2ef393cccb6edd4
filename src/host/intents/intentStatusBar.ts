import * as vscode from 'vscode';
import type { WorkspaceSessions } from '../../core/sessions/workspaceSessions';
import { withAgents } from '../agents/agentSessionText';
import type { IntentStatus } from './intentStatus';

/**
 * The `$(shield) <intent> · N agents` item; clicking it runs Select Active Intent. The intent part comes from
 * IntentsDisplay; the agents part follows the live sessions (given `sessions`), so an agent's binding shows too.
 */
export class IntentStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('intentGovernor.status', vscode.StatusBarAlignment.Left, 100);
  private status: IntentStatus | undefined;
  private readonly stopListening: () => void;

  constructor(private readonly sessions?: WorkspaceSessions) {
    this.item.name = 'Intent Governor';
    this.item.command = 'intentGovernor.selectIntent';
    this.stopListening = sessions?.onDidChange(() => this.render()) ?? (() => undefined);
  }

  get text(): string {
    return this.item.text;
  }

  show(status: IntentStatus): void {
    this.status = status;
    this.render();
  }

  dispose(): void {
    this.stopListening();
    this.item.dispose();
  }

  private render(): void {
    if (!this.status) return;
    const shown = this.sessions ? withAgents(this.status, this.sessions.defaultIntent(), this.sessions.list()) : this.status;
    this.item.text = shown.text;
    this.item.tooltip = shown.tooltip;
    this.item.backgroundColor = shown.text.startsWith('$(error)') ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }
}
