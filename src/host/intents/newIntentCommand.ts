import { statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { FileIntentSource } from '../../core/intents/fileIntentSource';
import { INTENTS_FILE_RELATIVE } from '../../core/intents/fileIntentSource';
import type { IntentStatus } from '../../core/intents/intent';
import { MAX_INTENT_ID_LENGTH } from '../../core/intents/intentsFile';
import { nextIntentId, parseGlobList, scopeInputProblem, type IntentDraft } from '../../core/intents/intentsFileEdit';
import type { GovernedFolder } from '../governedFolder';
import { createIntentsFileIfMissing } from './intentsFileCreation';

const TITLE = 'New Intent';
const STEPS = 6;
/** Constraints and criteria are typed on one line each; `;` separates them (it rarely appears inside one). */
const LIST_SEPARATOR = ';';

/**
 * New Intent…: id (the next INT-NNN suggested), name, owned scope (the folders selected in the Explorer when run
 * from there, else typed globs), status, constraints and acceptance criteria, then one entry appended to the intents
 * file, comments kept. The inputs check what the loader checks as the human types; what it would still refuse is
 * refused with its message and nothing is written. Escape at any step writes nothing. Returns the new id.
 */
export async function runNewIntent(governed: GovernedFolder, intents: FileIntentSource, selected: vscode.Uri[]): Promise<string | undefined> {
  const snapshot = await intents.load();
  if (!snapshot.valid) {
    void vscode.window.showErrorMessage(`${INTENTS_FILE_RELATIVE} has problems (see the Problems panel); fix them before adding an intent.`);
    return undefined;
  }
  const taken = new Set(snapshot.intents.map((i) => i.id));
  const id = await ask(1, 'Intent id: agents bind to it with select_active_intent', nextIntentId(snapshot.intents), (value) => idProblem(value.trim(), taken));
  if (id === undefined) return undefined;
  const name = await ask(2, 'Name: what this piece of work is, in a few words', '', (value) => (value.trim() ? undefined : 'Give the intent a short name.'));
  if (name === undefined) return undefined;
  const scopeText = await ask(
    3,
    'Owned scope: workspace-relative globs agents may write under this intent (commas or spaces between them; empty: none yet)',
    scopeFromSelection(governed.folder.uri.fsPath, selected).join(', '),
    (value) => scopeInputProblem(parseGlobList(value)),
    'src/feature/**, test/feature/**',
  );
  if (scopeText === undefined) return undefined;
  const status = await pickStatus();
  if (status === undefined) return undefined;
  const constraints = await ask(5, `Constraints shown to the agent (separate them with '${LIST_SEPARATOR}'; empty: none)`, '');
  if (constraints === undefined) return undefined;
  const criteria = await ask(6, `Acceptance criteria shown to the agent (separate them with '${LIST_SEPARATOR}'; empty: none)`, '');
  if (criteria === undefined) return undefined;

  const draft: IntentDraft = {
    id: id.trim(),
    name: name.trim(),
    status,
    owned_scope: parseGlobList(scopeText),
    constraints: splitList(constraints),
    acceptance_criteria: splitList(criteria),
  };
  const created = await createIntentsFileIfMissing(intents.file);
  if ('error' in created) {
    void vscode.window.showErrorMessage(created.error);
    return undefined;
  }
  const written = await intents.addIntent(draft);
  if (!written.ok) {
    void vscode.window.showErrorMessage(written.error.message);
    return undefined;
  }
  await governed.display.reload();
  governed.log.info(`new intent ${draft.id} (${draft.status}) added to ${INTENTS_FILE_RELATIVE}`);
  if (draft.status === 'IN_PROGRESS') {
    const SELECT = 'Select for Me';
    void vscode.window.showInformationMessage(`Intent ${draft.id} added. Select it as yours, so agents without an intent work under it?`, SELECT).then((choice) =>
      choice === SELECT ? vscode.commands.executeCommand('intentGovernor.selectIntent', draft.id) : undefined,
    );
  } else {
    void vscode.window.showInformationMessage(`Intent ${draft.id} added as ${draft.status}; set it IN_PROGRESS (Set Status… in the Intents view) when work starts.`);
  }
  return draft.id;
}

/** The loader's id rules, checked while typing. */
function idProblem(id: string, taken: Set<string>): string | undefined {
  if (id === '') return "Give the intent a unique id, such as 'INT-004' or 'auth-refactor'.";
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return 'The id must be one line without control characters.';
  if (id.length > MAX_INTENT_ID_LENGTH) return `The id must be at most ${MAX_INTENT_ID_LENGTH} characters.`;
  if (taken.has(id)) return `'${id}' is already an intent's id; pick another.`;
  return undefined;
}

/** Folders become `dir/**`, files their own path; anything outside the governed folder is left out. */
function scopeFromSelection(root: string, selected: vscode.Uri[]): string[] {
  const globs: string[] = [];
  for (const uri of selected) {
    if (uri.scheme !== 'file') continue;
    const rel = relative(root, uri.fsPath).split(sep).join('/');
    if (rel === '' || rel.startsWith('..') || /^[A-Za-z]:/.test(rel)) continue;
    // The Explorer's context menu runs only on folders (package.json `when`), but a multi-selection may hold files.
    const glob = isProbablyFile(uri) ? rel : `${rel}/**`;
    if (!globs.includes(glob)) globs.push(glob);
  }
  return globs;
}

function isProbablyFile(uri: vscode.Uri): boolean {
  try {
    return statSync(uri.fsPath).isFile();
  } catch {
    return false;
  }
}

function splitList(text: string): string[] {
  return text
    .split(LIST_SEPARATOR)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

async function ask(step: number, prompt: string, value: string, validate?: (value: string) => string | undefined, placeHolder?: string): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: `${TITLE} (${step}/${STEPS})`,
    prompt,
    value,
    placeHolder,
    ignoreFocusOut: true,
    validateInput: validate,
  });
}

async function pickStatus(): Promise<IntentStatus | undefined> {
  const items: (vscode.QuickPickItem & { status: IntentStatus })[] = [
    { label: 'IN_PROGRESS', description: 'agents may write inside its scope now', status: 'IN_PROGRESS' },
    { label: 'PLANNED', description: 'listed, but no agent may write under it yet', status: 'PLANNED' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: `${TITLE} (4/${STEPS})`, placeHolder: 'Status', ignoreFocusOut: true });
  return picked?.status;
}
