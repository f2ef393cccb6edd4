import { strict as assert } from 'node:assert';
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { DiscoveredServer } from '../../src/core/mcp/discoveryFile';
import type { Workbench } from '../vscode/codeServer';
import { repoRoot } from '../vscode/provisioned';
import { openInEditor } from '../vscode/workbenchActions';
import { answerModal, connectMcpClient, errorOf, launchGovernedVsCode, pickIntentInPalette, text, type GovernedVsCode, publishShot } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'e2e');
const LOGIN = 'src/auth/login.ts';

describe('e2e: an MCP agent governed inside a real VS Code', function () {
  let vscode: GovernedVsCode | undefined;
  let workspace: string;
  let workbench: Workbench;
  let client: Client | undefined;
  let discovered: DiscoveredServer;

  before(async function () {
    this.timeout(600_000);
    mkdirSync(shots, { recursive: true });
    vscode = await launchGovernedVsCode({ prefix: 'ig-e2e-', settings: { 'intentGovernor.approval': 'every-change' } });
    ({ workspace, workbench, discovered } = vscode);
    client = await connectMcpClient(discovered);
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close().catch(() => undefined);
    await vscode?.stop();
  });

  it('publishes a private discovery file naming this workspace', () => {
    assert.deepEqual(discovered.workspaceFolders, [workspace]);
    assert.match(discovered.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('selects an intent and is refused out of scope', async () => {
    assert.match(text(await client!.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), /Keep the public login\(\) signature stable/);
    const refused = await client!.callTool({ name: 'write_file', arguments: { path: 'src/billing/invoice.ts', content: 'x' } });
    assert.equal(errorOf(refused)?.code, 'SCOPE_VIOLATION');
  });

  it('reads a file, writes it, a human approves in the native modal, and the trace records it', async () => {
    const read = await client!.callTool({ name: 'read_file', arguments: { path: LOGIN } });
    const hash = /content_hash (sha256:[0-9a-f]{64})/.exec(text(read))?.[1];
    assert.ok(hash, text(read));
    const content = 'export function login(user: string, password: string): boolean {\n  return user.length > 0 && password.length >= 16;\n}\n';
    const pending = client!.callTool({ name: 'write_file', arguments: { path: LOGIN, content, expected_content_hash: hash } });
    const shown = await answerModal(workbench.page, 'Approve', join(shots, 'approval-modal.png'));
    publishShot(join(shots, 'approval-modal.png'));
    assert.match(shown, /write_file|src\/auth\/login\.ts/);
    assert.match(shown, /auth-refactor/);
    const result = await pending;
    assert.equal(errorOf(result), undefined, text(result));
    assert.equal(readFileSync(join(workspace, LOGIN), 'utf8'), content);
    const records = readFileSync(join(workspace, '.orchestration', 'agent_trace.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const record = records.at(-1);
    assert.equal(record.files[0].path, LOGIN);
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.equal(record.metadata.decision, 'approved');
    assert.equal(record.metadata.agent, 'e2e-agent');
  });

  it('a human rejects in the modal: HITL_REJECT and the file is untouched', async () => {
    const before = readFileSync(join(workspace, LOGIN), 'utf8');
    const read = await client!.callTool({ name: 'read_file', arguments: { path: LOGIN } });
    const hash = /content_hash (sha256:[0-9a-f]{64})/.exec(text(read))?.[1];
    const pending = client!.callTool({ name: 'write_file', arguments: { path: LOGIN, content: 'rejected\n', expected_content_hash: hash } });
    await answerModal(workbench.page, 'Reject', join(shots, 'approval-modal-reject.png'));
    assert.equal(errorOf(await pending)?.code, 'HITL_REJECT');
    assert.equal(readFileSync(join(workspace, LOGIN), 'utf8'), before);
  });

  it('a write based on a stale read is refused with a diff of what changed, before anyone is asked', async () => {
    const read = await client!.callTool({ name: 'read_file', arguments: { path: LOGIN } });
    const hash = /content_hash (sha256:[0-9a-f]{64})/.exec(text(read))?.[1];
    const human = readFileSync(join(workspace, LOGIN), 'utf8').replace('>= 16', '>= 20');
    writeFileSync(join(workspace, LOGIN), human);
    const result = await client!.callTool({ name: 'write_file', arguments: { path: LOGIN, content: 'agent\n', expected_content_hash: hash } });
    const error = errorOf(result);
    assert.equal(error?.code, 'STALE_FILE');
    assert.match(String(error?.meta?.diff), /\+.*password\.length >= 20/);
    assert.equal(readFileSync(join(workspace, LOGIN), 'utf8'), human);
    assert.equal(await workbench.page.locator('.monaco-dialog-box').count(), 0);
  });

  it('an approved write through an open editor never lands outside the workspace when its folder became a link while the modal was open', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'ig-e2e-outside-'));
    const auth = join(workspace, 'src', 'auth');
    try {
      await openInEditor(workbench.page, LOGIN);
      const read = await client!.callTool({ name: 'read_file', arguments: { path: LOGIN } });
      const hash = /content_hash (sha256:[0-9a-f]{64})/.exec(text(read))?.[1];
      const pending = client!.callTool({ name: 'write_file', arguments: { path: LOGIN, content: 'agent\n', expected_content_hash: hash } });
      // While the human reads the modal, src/auth becomes a link to a folder outside holding an identical copy.
      await answerModal(workbench.page, 'Approve', undefined, async () => {
        copyFileSync(join(auth, 'login.ts'), join(outside, 'login.ts'));
        renameSync(auth, `${auth}-moved`);
        symlinkSync(outside, auth);
      });
      const error = errorOf(await pending);
      assert.equal(error?.code, 'PATH_OUTSIDE_WORKSPACE', JSON.stringify(error));
      assert.equal(readFileSync(join(outside, 'login.ts'), 'utf8'), readFileSync(join(`${auth}-moved`, 'login.ts'), 'utf8'));
      assert.deepEqual(readdirSync(outside), ['login.ts']);
    } finally {
      if (lstatSync(auth, { throwIfNoEntry: false })?.isSymbolicLink()) {
        unlinkSync(auth);
        renameSync(`${auth}-moved`, auth);
      }
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a human picks the intent from the command palette and the status bar shows it', async () => {
    const page = workbench.page;
    await pickIntentInPalette(page, 'auth-refactor');
    await page.locator('.part.statusbar').screenshot({ path: join(shots, 'status-bar.png') });
    publishShot(join(shots, 'status-bar.png'));
  });
});
