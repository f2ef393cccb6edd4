import * as assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { assertAgentTraceRecord } from '../../support/agentTraceSchema';
import { activateGovernor, contentHashIn, invokeGovernedTool, parseToolError, waitFor, workspaceUri } from './extensionUnderTest';

const TRACE = '.orchestration/agent_trace.jsonl';

/** Live processes running exactly `sleep <seconds>` (Linux /proc; a zombie's cmdline is empty, so it does not count). */
async function sleepers(seconds: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline === `sleep\0${seconds}\0`) found.push(Number(name));
  }
  return found;
}

async function traceRecords(): Promise<Record<string, any>[]> {
  const text = await readFile(workspaceUri(TRACE).fsPath, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

// Approvals are clicked for real in the Playwright e2e tests; here approval stays destructive-only (runSuite.ts) and nothing is deleted.
describe('governed language model tools', () => {
  before(async () => {
    await activateGovernor();
    assert.equal(await vscode.commands.executeCommand('intentGovernor.selectIntent', 'auth-refactor'), 'auth-refactor');
  });

  afterEach(async () => {
    // Revert first: closing a dirty editor would open a save prompt nobody answers.
    for (const document of vscode.workspace.textDocuments) {
      if (document.isDirty) {
        await vscode.window.showTextDocument(document);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await vscode.commands.executeCommand('intentGovernor.clearIntent');
  });

  it('read_file returns the text with its content_hash', async () => {
    const text = await invokeGovernedTool('read_file', { path: 'src/auth/login.ts' });
    const disk = await readFile(workspaceUri('src/auth/login.ts').fsPath, 'utf8');
    contentHashIn(text);
    assert.ok(text.startsWith('src/auth/login.ts ('), text.slice(0, 100));
    assert.ok(text.endsWith(disk), 'the file text follows the header');
  });

  it('write_file in scope changes the file and appends an Agent Trace record', async () => {
    const before = await traceRecords();
    const hash = contentHashIn(await invokeGovernedTool('read_file', { path: 'src/auth/login.ts' }));
    const content = `${await readFile(workspaceUri('src/auth/login.ts').fsPath, 'utf8')}export const viaLmTool = true;\n`;
    const text = await invokeGovernedTool('write_file', { path: 'src/auth/login.ts', content, expected_content_hash: hash });
    assert.match(text, /^Updated src\/auth\/login\.ts\. New content_hash: sha256:/);
    assert.equal(await readFile(workspaceUri('src/auth/login.ts').fsPath, 'utf8'), content);

    const after = await traceRecords();
    assert.equal(after.length, before.length + 1);
    const record = after[after.length - 1];
    assertAgentTraceRecord(record, 'the new trace line');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.equal(record.metadata.agent, 'vscode-agent');
    assert.equal(record.metadata.session_id, 'vscode-lm');
    assert.equal(record.metadata.tool_name, 'write_file');
    assert.deepEqual(record.files.map((f: { path: string }) => f.path), ['src/auth/login.ts']);
  });

  it('write_file out of scope is refused with SCOPE_VIOLATION and changes nothing', async () => {
    const path = 'src/billing/invoice.ts';
    const disk = await readFile(workspaceUri(path).fsPath, 'utf8');
    const refusal = parseToolError(await invokeGovernedTool('write_file', { path, content: 'hijacked\n' }));
    assert.equal(refusal.code, 'SCOPE_VIOLATION');
    assert.match(refusal.message, /request_scope_expansion/);
    assert.equal(await readFile(workspaceUri(path).fsPath, 'utf8'), disk);
  });

  it('refuses to write over unsaved edits in an editor (STALE_FILE, unsaved_editor) and leaves the disk alone', async () => {
    const path = 'src/auth/login.ts';
    const disk = await readFile(workspaceUri(path).fsPath, 'utf8');
    const hash = contentHashIn(await invokeGovernedTool('read_file', { path }));
    const editor = await vscode.window.showTextDocument(workspaceUri(path));
    assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// a human is typing\n')));
    assert.equal(editor.document.isDirty, true);

    const refusal = parseToolError(await invokeGovernedTool('write_file', { path, content: 'agent version\n', expected_content_hash: hash }));
    assert.equal(refusal.code, 'STALE_FILE');
    assert.equal(refusal.meta?.reason, 'unsaved_editor');
    assert.equal(await readFile(workspaceUri(path).fsPath, 'utf8'), disk);
    assert.ok(editor.document.getText().startsWith('// a human is typing\n'), 'the human edit is still in the editor');
  });

  it('writes to a file open in an editor through the editor, which shows the new text and stays saved', async () => {
    const path = 'src/auth/session.ts';
    await writeFile(workspaceUri(path).fsPath, 'export const sessions = 1;\n');
    const document = await vscode.workspace.openTextDocument(workspaceUri(path));
    await vscode.window.showTextDocument(document);
    const hash = contentHashIn(await invokeGovernedTool('read_file', { path }));

    const content = 'export const sessions = 2;\nexport const store = "token";\n';
    const text = await invokeGovernedTool('write_file', { path, content, expected_content_hash: hash });
    assert.match(text, /^Updated src\/auth\/session\.ts/);
    assert.equal(document.getText(), content);
    assert.equal(document.isDirty, false);
    assert.equal(await readFile(workspaceUri(path).fsPath, 'utf8'), content);
  });

  it('keeps the exact bytes when the agent writes CRLF into a document open with LF', async () => {
    const path = 'src/auth/crlf.ts';
    await writeFile(workspaceUri(path).fsPath, 'a\nb\n');
    const document = await vscode.workspace.openTextDocument(workspaceUri(path));
    await vscode.window.showTextDocument(document);
    const hash = contentHashIn(await invokeGovernedTool('read_file', { path }));
    const content = 'a\r\nb\r\nc\r\n';
    await invokeGovernedTool('write_file', { path, content, expected_content_hash: hash });
    assert.equal(await readFile(workspaceUri(path).fsPath, 'utf8'), content);
    assert.equal(document.eol, vscode.EndOfLine.CRLF);
    assert.equal(document.isDirty, false);
  });

  it('stopping the chat request cancels the call: its CancellationToken kills a running command', async function () {
    if (process.platform !== 'linux') this.skip(); // finds the process through /proc
    // An odd duration nobody else sleeps for, so the process found is ours; read-only, so no approval is asked.
    const seconds = '47.31';
    const quick = await invokeGovernedTool('run_command', { command: 'sleep 0' });
    assert.match(quick, /exit code 0/, `run_command must be allowed here: ${quick.slice(0, 300)}`);
    const source = new vscode.CancellationTokenSource();
    const invocation = vscode.lm.invokeTool('intent-governor_run_command', { input: { command: `sleep ${seconds}` }, toolInvocationToken: undefined }, source.token);
    invocation.then(undefined, () => undefined); // VS Code may reject with CancellationError once cancelled
    const pids = await waitFor('the command to start', async () => {
      const running = await sleepers(seconds);
      return running.length ? running : undefined;
    }, 10_000);
    source.cancel();
    await invocation.then(undefined, () => undefined);
    // Before the token reached the call, the command slept on for its full 47 s.
    await waitFor('the command to be killed', async () => (await sleepers(seconds)).filter((pid) => pids.includes(pid)).length === 0, 10_000);
    source.dispose();
  });
});
