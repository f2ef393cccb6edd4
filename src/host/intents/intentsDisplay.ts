import * as vscode from 'vscode';
import type { FileIntentSource } from '../../core/intents/fileIntentSource';
import type { IntentsSnapshot } from '../../core/intents/intent';
import type { WorkspaceSessions } from '../../core/sessions/workspaceSessions';
import { IntentDiagnostics } from './intentDiagnostics';
import { intentStatus } from './intentStatus';
import type { IntentStatusBar } from './intentStatusBar';

/**
 * Keeps what the human sees (status bar, Problems panel) in step with the intents file and the picked intent.
 * `reload` runs on every watcher event; only the newest reload publishes, so events that race each other
 * cannot leave an older snapshot on screen.
 */
export class IntentsDisplay implements vscode.Disposable {
  private snapshot: IntentsSnapshot | undefined;
  private generation = 0;
  private readonly diagnostics: IntentDiagnostics;
  private readonly refreshed = new vscode.EventEmitter<void>();
  /** The plan or the human's intent may have changed: views that show them redraw (the Intents view). */
  readonly onDidRefresh = this.refreshed.event;
  private readonly stopFollowingPick: () => void;

  constructor(
    private readonly intents: FileIntentSource,
    private readonly sessions: WorkspaceSessions,
    private readonly statusBar: IntentStatusBar,
    /** The intents file as the editor names it (through the folder's path, which may differ from the realpath). */
    intentsFile: vscode.Uri,
  ) {
    this.diagnostics = new IntentDiagnostics(intentsFile);
    // A pick made here or in another window of the workspace.
    this.stopFollowingPick = sessions.onDidChangePick(() => this.refresh());
  }

  /** Forgets the cached snapshot (the watcher saw a change that a same-size, same-tick edit could hide) and shows the new one. */
  async reload(): Promise<IntentsSnapshot> {
    const generation = ++this.generation;
    this.intents.invalidate();
    const snapshot = await this.intents.load();
    if (generation === this.generation) {
      this.snapshot = snapshot;
      this.diagnostics.publish(snapshot);
      this.refresh();
    }
    return snapshot;
  }

  /** Redraws the status bar, e.g. after the human picked or cleared an intent. */
  refresh(): void {
    this.statusBar.show(intentStatus(this.snapshot, this.sessions.defaultIntent()));
    this.refreshed.fire();
  }

  dispose(): void {
    this.stopFollowingPick();
    this.diagnostics.dispose();
    this.refreshed.dispose();
  }
}
