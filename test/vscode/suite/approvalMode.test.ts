import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { IntentGovernorApi } from '../../../src/host/extensionApi';
import { activateGovernor, waitFor, workspaceUri } from './extensionUnderTest';

const INTENTS = '.orchestration/active_intents.yaml';
const agent = { name: 'approval-mode-test' };
const SESSION = 'approval-mode-test';

/** The approval mode as a user sets it: the editor's setting, and an intent's own `approval:` in the plan. */
describe('approval modes in VS Code', () => {
  let api: IntentGovernorApi;
  let original: string;
  const intentsUri = () => workspaceUri(INTENTS);
  const config = () => vscode.workspace.getConfiguration('intentGovernor');
  const writeDecision = async () => (await api.decide({ tool: 'write_file', input: { path: 'src/auth/mode.ts', content: 'x\n' }, session_id: SESSION, agent })).decision;

  before(async () => {
    api = await activateGovernor();
    original = await readFile(intentsUri().fsPath, 'utf8');
  });

  after(async () => {
    await writeFile(intentsUri().fsPath, original);
    await waitFor('diagnostics to clear', () => vscode.languages.getDiagnostics(intentsUri()).length === 0);
    await config().update('approval', 'destructive-only', vscode.ConfigurationTarget.Global);
  });

  it("an intent's own approval wins over the setting: destructive-only lets its writes through while the editor asks for every change", async () => {
    await config().update('approval', 'every-change', vscode.ConfigurationTarget.Global);
    const selected = await api.call({ tool: 'select_active_intent', input: { intent_id: 'auth-refactor' }, session_id: SESSION, agent });
    assert.ok(selected.ok, JSON.stringify(selected));
    await waitFor('a write to ask under the every-change setting', async () => (await writeDecision()) === 'ask');
    await writeFile(intentsUri().fsPath, original.replace('    constraints:', '    approval: destructive-only\n    constraints:'));
    await waitFor("the intent's destructive-only to let the write through", async () => (await writeDecision()) === 'allow');
    await writeFile(intentsUri().fsPath, original);
    await waitFor('the setting to decide again once the intent says nothing', async () => (await writeDecision()) === 'ask');
  });

  it('an unknown approval value is a problem in the intents file, at its line', async () => {
    await writeFile(intentsUri().fsPath, original.replace('    constraints:', '    approval: sometimes\n    constraints:'));
    const diagnostics = await waitFor('a diagnostic on the approval line', () => {
      const found = vscode.languages.getDiagnostics(intentsUri()).filter((d) => /approval 'sometimes' is not one of every-change, destructive-only/.test(d.message));
      return found.length > 0 ? found : undefined;
    });
    const line = original.replace('    constraints:', '    approval: sometimes\n    constraints:').split('\n').findIndex((l) => l.includes('approval: sometimes'));
    assert.equal(diagnostics[0].range.start.line, line);
    assert.equal(diagnostics[0].severity, vscode.DiagnosticSeverity.Error);
  });
});
