import * as vscode from 'vscode';
import type { Governor } from '../core/governor';
import type { GovernorServices } from '../core/governorServices';
import type { WorkspaceSessions } from '../core/sessions/workspaceSessions';
import type { AnchorStore } from '../core/trace/anchorStore';
import type { IntentsDisplay } from './intents/intentsDisplay';
import type { VirtualDocuments } from './trace/virtualDocuments';

/** Everything the commands act on for the one governed folder (single-root: the first workspace folder). */
export interface GovernedFolder {
  readonly folder: vscode.WorkspaceFolder;
  readonly governor: Governor;
  readonly services: GovernorServices;
  /** The live agent sessions this window shows: its own and the serving window's. */
  readonly agentSessions: WorkspaceSessions;
  readonly anchors: AnchorStore;
  readonly display: IntentsDisplay;
  readonly documents: VirtualDocuments;
  readonly log: vscode.LogOutputChannel;
}

/** What every command says in a window with no folder, where the extension stays idle. */
export function showNoFolderMessage(): undefined {
  void vscode.window.showInformationMessage('Intent Governor needs a folder: open one (File > Open Folder…) to govern agents in it.');
  return undefined;
}
