import * as assert from 'node:assert/strict';
import { readFile, rename, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { IntentGovernorApi, RecordedNotice } from '../../../src/host/extensionApi';
import { activateGovernor, EXTENSION_ID, invokeGovernedTool, parseToolError, waitFor, workspaceUri } from './extensionUnderTest';

const INTENTS = '.orchestration/active_intents.yaml';
const agent = { name: 'host-test' };

// `status: WIP` on line 4: the value starts at column 13 (1-based), i.e. Position(3, 12).
const INVALID_INTENTS = `active_intents:
  - id: auth-refactor
    name: Move sessions to the new token store
    status: WIP
    owned_scope:
      - src/auth/**
`;

/** The status bar's intent part: agents other suites left live add ` · N agents…` after it (agentSessions.test.ts tests that). */
function intentPart(text: string): string {
  return text.replace(/ · \d+ agents?\b.*$/, '');
}

/** The ids of the records in one of the workspace's logs, read from disk. */
async function loggedIds(log: string): Promise<string[]> {
  const text = await readFile(workspaceUri(log).fsPath, 'utf8');
  return text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id);
}

describe('Intent Governor in VS Code', () => {
  let api: IntentGovernorApi;
  let originalIntents: string;
  const intentsUri = () => workspaceUri(INTENTS);

  before(async () => {
    api = await activateGovernor();
    originalIntents = await readFile(intentsUri().fsPath, 'utf8');
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await writeFile(intentsUri().fsPath, originalIntents);
    await vscode.commands.executeCommand('intentGovernor.clearIntent');
  });

  it('activates on the demo workspace and registers every contributed command', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.equal(extension?.isActive, true);
    const contributed: string[] = extension.packageJSON.contributes.commands.map((c: { command: string }) => c.command);
    // Several features add commands; each one contributed must be registered (below), including Install Agent Hooks.
    assert.ok(contributed.includes('intentGovernor.installHooks'), 'Install Agent Hooks is not contributed');
    const registered = await vscode.commands.getCommands(true);
    for (const command of contributed) assert.ok(registered.includes(command), `${command} is not registered`);
  });

  it('registers every governed tool as a language model tool', () => {
    const names = vscode.lm.tools.map((tool) => tool.name);
    for (const tool of api.toolNames()) assert.ok(names.includes(`intent-governor_${tool}`), `intent-governor_${tool} missing from vscode.lm.tools`);
  });

  it('starts with no intent, so writes are refused until one is selected', async () => {
    assert.equal(intentPart(api.statusText()), '$(shield) no intent');
    const report = await api.decide({ tool: 'write_file', input: { path: 'src/auth/new.ts', content: 'x\n' }, session_id: 'host-test', agent });
    assert.equal(report.code, 'NO_ACTIVE_INTENT');
  });

  it('selects an intent by id: the status bar shows it and writes in its scope are allowed', async () => {
    const selected = await vscode.commands.executeCommand('intentGovernor.selectIntent', 'auth-refactor');
    assert.equal(selected, 'auth-refactor');
    assert.equal(intentPart(api.statusText()), '$(shield) auth-refactor');
    const report = await api.decide({ tool: 'write_file', input: { path: 'src/auth/new.ts', content: 'x\n' }, session_id: 'host-test', agent });
    assert.equal(report.decision, 'allow', report.message);
  });

  it('refuses to select an intent that is not IN_PROGRESS, keeping the current one', async () => {
    const selected = await vscode.commands.executeCommand('intentGovernor.selectIntent', 'billing-cleanup');
    assert.equal(selected, undefined);
    assert.equal(intentPart(api.statusText()), '$(shield) auth-refactor');
  });

  it('clears the intent', async () => {
    await vscode.commands.executeCommand('intentGovernor.clearIntent');
    assert.equal(intentPart(api.statusText()), '$(shield) no intent');
    const report = await api.decide({ tool: 'write_file', input: { path: 'src/auth/new.ts', content: 'x\n' }, session_id: 'host-test', agent });
    assert.equal(report.code, 'NO_ACTIVE_INTENT');
    await vscode.commands.executeCommand('intentGovernor.selectIntent', 'auth-refactor');
  });

  it('shows problems of an invalid intents file as diagnostics, refuses writes, and clears them once fixed', async () => {
    await vscode.commands.executeCommand('intentGovernor.selectIntent', 'auth-refactor');
    await writeFile(intentsUri().fsPath, INVALID_INTENTS);
    const diagnostics = await waitFor('diagnostics on the intents file', () => {
      const found = vscode.languages.getDiagnostics(intentsUri());
      return found.length > 0 ? found : undefined;
    });
    assert.equal(diagnostics.length, 1, diagnostics.map((d) => d.message).join('\n'));
    assert.equal(diagnostics[0].range.start.line, 3);
    assert.equal(diagnostics[0].range.start.character, 12);
    assert.equal(diagnostics[0].severity, vscode.DiagnosticSeverity.Error);
    assert.match(diagnostics[0].message, /WIP/);
    assert.equal(intentPart(api.statusText()), '$(error) intents invalid');

    const refusal = parseToolError(await invokeGovernedTool('write_file', { path: 'src/auth/blocked.ts', content: 'x\n' }));
    assert.equal(refusal.code, 'INTENTS_FILE_INVALID');

    await writeFile(intentsUri().fsPath, originalIntents);
    await waitFor('diagnostics to clear', () => vscode.languages.getDiagnostics(intentsUri()).length === 0);
    await waitFor('the status bar to show the intent again', () => intentPart(api.statusText()) === '$(shield) auth-refactor');
  });

  it('opens the intents file, creating a commented, valid template when there is none', async () => {
    const aside = `${intentsUri().fsPath}.aside`;
    await rename(intentsUri().fsPath, aside);
    try {
      const opened = await vscode.commands.executeCommand<vscode.Uri>('intentGovernor.openIntentsFile');
      assert.equal(opened?.fsPath, intentsUri().fsPath);
      const text = await readFile(intentsUri().fsPath, 'utf8');
      assert.match(text, /^# Intent Governor/);
      assert.match(text, /^active_intents: \[\]$/m);
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, intentsUri().fsPath);
      await waitFor('the template to load as a valid, empty plan', () => intentPart(api.statusText()) === '$(shield) auth-refactor' && vscode.languages.getDiagnostics(intentsUri()).length === 0);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await rename(aside, intentsUri().fsPath);
    }
    await vscode.commands.executeCommand<vscode.Uri>('intentGovernor.openIntentsFile');
    assert.equal(await readFile(intentsUri().fsPath, 'utf8'), originalIntents, 'an existing intents file was overwritten');
    // The editor may still hold the template's document until its file watcher sees the restored file.
    await waitFor('the editor to show the existing file', () => vscode.window.activeTextEditor?.document.getText() === originalIntents);
  });

  it('shows the trace as a read-only table and verifies it', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('intentGovernor.showTrace');
    assert.ok(uri, 'showTrace returned no document');
    assert.notEqual(uri.scheme, 'file', 'the trace view must not be an editable file');
    const document = await vscode.workspace.openTextDocument(uri);
    assert.match(document.getText(), /^Agent Trace: \.orchestration\/agent_trace\.jsonl \(\d+ records?/);
    assert.match(document.getText(), /LINE +TIME +INTENT +AGENT/);
    const wide = document.getText().split('\n').filter((line) => line.length > 80);
    assert.deepEqual(wide, [], 'every line fits an editor beside the chat');

    const results = await vscode.commands.executeCommand<{ log: string; result: { status: string } }[]>('intentGovernor.verifyTrace');
    assert.deepEqual(results.map((r) => r.log), ['.orchestration/agent_trace.jsonl', '.orchestration/governance_log.jsonl']);
    for (const { log, result } of results) assert.notEqual(result.status, 'tampered', log);
  });

  it('follows the approval setting live, and the deprecated approveWrites while approval is unset', async () => {
    const config = vscode.workspace.getConfiguration('intentGovernor');
    const global = vscode.ConfigurationTarget.Global;
    const session = 'approval-setting-test';
    const writeDecision = async () => (await api.decide({ tool: 'write_file', input: { path: 'src/auth/asks.ts', content: 'x\n' }, session_id: session, agent })).decision;
    assert.ok((await api.call({ tool: 'select_active_intent', input: { intent_id: 'auth-refactor' }, session_id: session, agent })).ok);
    // Allowed, not asked: the workspace is trusted and the suite runs with approval: destructive-only (runSuite.ts).
    assert.equal(await writeDecision(), 'allow');
    try {
      await config.update('approval', 'every-change', global);
      await waitFor('writes to ask once approval is every-change', async () => (await writeDecision()) === 'ask');
      await config.update('approval', undefined, global);
      await config.update('approveWrites', false, global);
      await waitFor('approveWrites false to be read as destructive-only', async () => (await writeDecision()) === 'allow');
      await config.update('approveWrites', true, global);
      await waitFor('approveWrites true to be read as every-change', async () => (await writeDecision()) === 'ask');
    } finally {
      await config.update('approveWrites', undefined, global);
      await config.update('approval', 'destructive-only', global);
    }
    await waitFor('writes to be allowed again once approval is destructive-only', async () => (await writeDecision()) === 'allow');
  });

  it('offers no way around governance: a facade that calls through the pipeline and tells of each record once it stands', async () => {
    assert.deepEqual(Object.keys(api).sort(), ['call', 'decide', 'hookStatusText', 'intentsView', 'mcpUrl', 'onDidRecord', 'statusText', 'toolNames']);
    assert.ok(Object.isFrozen(api));
    const heard: RecordedNotice[] = [];
    const listening = api.onDidRecord((notice) => heard.push(notice));
    try {
      const written = await api.call({ tool: 'write_file', input: { path: 'src/auth/from-api.ts', content: 'export const viaApi = true;\n' }, session_id: 'host-test', agent });
      assert.ok(written.ok, written.ok ? '' : written.error.message);
      const refused = await api.call({ tool: 'write_file', input: { path: 'src/billing/from-api.ts', content: 'x\n' }, session_id: 'host-test', agent });
      assert.equal(refused.ok ? 'ok' : refused.error.code, 'SCOPE_VIOLATION');
      // Fired once the record stands, so it is in the log on disk by the time a listener hears of it.
      const mutation = heard.find((n) => n.invocation_id === written.invocation_id);
      assert.equal(mutation?.log, '.orchestration/agent_trace.jsonl');
      assert.ok(await loggedIds(mutation.log).then((ids) => ids.includes(mutation.id)), `${mutation.id} is not in ${mutation.log}`);
      const refusal = heard.find((n) => n.invocation_id === refused.invocation_id);
      assert.equal(refusal?.log, '.orchestration/governance_log.jsonl');
      assert.ok(await loggedIds(refusal.log).then((ids) => ids.includes(refusal.id)), `${refusal.id} is not in ${refusal.log}`);
    } finally {
      listening.dispose();
    }
  });
});
