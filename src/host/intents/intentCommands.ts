import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { INTENTS_FILE_RELATIVE } from '../../core/intents/fileIntentSource';
import { showNoFolderMessage, type GovernedFolder } from '../governedFolder';
import { pickIntent } from './intentPicker';
import { INTENTS_TEMPLATE } from './intentsTemplate';

const OPEN_FILE = 'Open Intents File';

/**
 * Select / Clear Active Intent and Open Intents File. The picked intent becomes the sessions' default: every
 * agent session that has not selected its own works under it. Select accepts an intent id argument
 * (keybindings, tests) and then skips the picker; it returns the id now active, or undefined.
 */
export function registerIntentCommands(governed: GovernedFolder | undefined): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('intentGovernor.selectIntent', async (intentId?: unknown) => {
      if (!governed) return showNoFolderMessage();
      return selectIntent(governed, typeof intentId === 'string' ? intentId : undefined);
    }),
    vscode.commands.registerCommand('intentGovernor.clearIntent', async () => {
      if (!governed) return showNoFolderMessage();
      await share(governed, undefined);
      governed.log.info('active intent cleared');
      return undefined;
    }),
    vscode.commands.registerCommand('intentGovernor.openIntentsFile', async () => {
      if (!governed) return showNoFolderMessage();
      return openIntentsFile(governed);
    }),
  ];
}

async function selectIntent(governed: GovernedFolder, requested: string | undefined): Promise<string | undefined> {
  const snapshot = await governed.display.reload();
  if (!snapshot.valid) {
    offerIntentsFile(governed, `${snapshot.file} has problems (see the Problems panel); fix them before selecting an intent.`, 'error');
    return undefined;
  }
  if (requested === undefined && snapshot.intents.length === 0) {
    offerIntentsFile(governed, `${snapshot.file} has no intents yet; add one with status IN_PROGRESS, then select it.`, 'info');
    return undefined;
  }
  const sessions = governed.services.sessions;
  const id = requested ?? (await pickIntent(snapshot.intents, sessions.getDefaultIntent()));
  if (id === undefined) return undefined;
  const intent = snapshot.intents.find((candidate) => candidate.id === id);
  if (!intent || intent.status !== 'IN_PROGRESS') {
    const why = intent ? `is ${intent.status}; only IN_PROGRESS intents can be selected` : `is not in ${snapshot.file}`;
    void vscode.window.showErrorMessage(`Intent '${id}' ${why}.`);
    return undefined;
  }
  await share(governed, id);
  governed.log.info(`active intent: ${id}`);
  // The person's pick is an IntentSelected event for the user hooks too, as a model's select_active_intent is.
  void governed.governor.userHooks
    .fire({ event: 'IntentSelected', sessionKey: 'vscode-human', sessionId: 'vscode-human', agent: { name: 'vscode-human' }, cwd: governed.services.workspace.root, fields: { intent_id: id, selected_by: 'human' } })
    .catch((error: unknown) => governed.log.error(`IntentSelected hooks: ${error instanceof Error ? error.message : String(error)}`));
  return id;
}

/**
 * The pick is the workspace's: agents served by another window of this folder work under it too. When that
 * window cannot be told, the person learns that the pick holds in this window only.
 */
async function share(governed: GovernedFolder, intentId: string | undefined): Promise<void> {
  const shared = await governed.agentSessions.pick(intentId).catch((error: unknown) => {
    governed.log.warn(`the window serving this folder could not be told the pick: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  });
  if (!shared) void vscode.window.showWarningMessage('The VS Code window serving this folder could not be told: agents it serves keep the intent it had. Pick again in a moment.');
}

/** Opens the intents file, first creating it from a commented template when there is none. */
async function openIntentsFile(governed: GovernedFolder): Promise<vscode.Uri | undefined> {
  const uri = vscode.Uri.joinPath(governed.folder.uri, INTENTS_FILE_RELATIVE);
  try {
    await mkdir(dirname(uri.fsPath), { recursive: true });
    // 'wx' never replaces a file someone created a moment ago.
    await writeFile(uri.fsPath, INTENTS_TEMPLATE, { flag: 'wx' });
    governed.log.info(`created ${INTENTS_FILE_RELATIVE} from the template`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      const detail = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`Could not create ${INTENTS_FILE_RELATIVE} (${detail}); check the folder's permissions.`);
      return undefined;
    }
  }
  await vscode.window.showTextDocument(uri);
  return uri;
}

/** A message with an Open Intents File button; not awaited, because a notification stays until dismissed. */
function offerIntentsFile(governed: GovernedFolder, message: string, level: 'info' | 'error'): void {
  const shown = level === 'error' ? vscode.window.showErrorMessage(message, OPEN_FILE) : vscode.window.showInformationMessage(message, OPEN_FILE);
  void shown.then((choice) => (choice === OPEN_FILE ? openIntentsFile(governed) : undefined));
}
