import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { governorHome } from '../../../src/core/paths/governorHome';
import { activateGovernor, waitFor, workspaceUri } from './extensionUnderTest';

const WATCHED = 'watched.env';

/** The JSON inputs a hook appended to `file`, one a line. */
async function inputs(file: string): Promise<Record<string, unknown>[]> {
  if (!existsSync(file)) return [];
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('hook events VS Code fires itself (ConfigChange, FileChanged)', () => {
  const home = governorHome();
  const ownHooks = join(home, 'hooks.json');
  const configMarker = join(home, 'config-changes.jsonl');
  const fileMarker = join(home, 'file-changes.jsonl');

  before(() => activateGovernor());

  after(async () => {
    await rm(ownHooks, { force: true });
    await rm(configMarker, { force: true });
    await rm(fileMarker, { force: true });
    await rm(workspaceUri(WATCHED).fsPath, { force: true });
  });

  it("a change to the person's hooks file fires ConfigChange; then saving the file a FileChanged matcher names fires FileChanged with its path and 'change'", async () => {
    const document = workspaceUri(WATCHED);
    await writeFile(document.fsPath, 'A=1\n');
    await mkdir(home, { recursive: true });
    const append = (marker: string) => `cat >> '${marker}'; echo >> '${marker}'`;
    const hooks = {
      hooks: {
        ConfigChange: [{ matcher: 'user_settings', hooks: [{ type: 'command', command: append(configMarker) }] }],
        FileChanged: [{ matcher: WATCHED, hooks: [{ type: 'command', command: append(fileMarker) }] }],
      },
    };
    await writeFile(ownHooks, JSON.stringify(hooks));
    const configChange = await waitFor('a ConfigChange hook run', async () => (await inputs(configMarker))[0], 20_000);
    assert.equal(configChange.hook_event_name, 'ConfigChange');
    assert.equal(configChange.source, 'user_settings');
    assert.equal(configChange.file_path, ownHooks);

    // Saved as a person saves it: through an editor. The watcher for the new matcher may take a moment to start.
    const editor = await vscode.window.showTextDocument(document);
    const fileChange = await waitFor(
      'a FileChanged hook run',
      async () => {
        await editor.edit((edit) => edit.insert(new vscode.Position(editor.document.lineCount - 1, 0), 'B=2\n'));
        await editor.document.save();
        await new Promise((resolve) => setTimeout(resolve, 500));
        return (await inputs(fileMarker))[0];
      },
      30_000,
    );
    assert.equal(fileChange.hook_event_name, 'FileChanged');
    assert.equal(fileChange.file_path, document.fsPath);
    assert.equal(fileChange.event, 'change');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
