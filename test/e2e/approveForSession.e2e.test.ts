import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Workbench } from '../vscode/codeServer';
import { repoRoot } from '../vscode/provisioned';
import { answerModal, connectMcpClient, errorOf, launchGovernedVsCode, text, type GovernedVsCode, publishShot } from './e2eSupport';

const shots = join(repoRoot, 'test-results', 'e2e');
const MODAL_SHOT = 'approve-for-session-modal.png';

interface TraceRecord {
  files: { path: string }[];
  metadata: Record<string, unknown> & { approval?: { approver: string; standing?: Record<string, string>; granted_standing?: Record<string, string> } };
}

/** Approvals as a user lives with them: every change asks (the default), and one click covers the session's later ones. */
describe('e2e: Approve for this Session in a real VS Code', function () {
  let vscode: GovernedVsCode | undefined;
  let workspace: string;
  let workbench: Workbench;
  let client: Client | undefined;

  before(async function () {
    this.timeout(600_000);
    mkdirSync(shots, { recursive: true });
    // No approval setting: the VS Code default, every-change, is what this test is about.
    vscode = await launchGovernedVsCode({ prefix: 'ig-e2e-session-' });
    ({ workspace, workbench } = vscode);
    client = await connectMcpClient(vscode.discovered, 'session-agent');
  });

  after(async function () {
    this.timeout(60_000);
    await client?.close().catch(() => undefined);
    await vscode?.stop();
  });

  const write = (path: string, content: string) => client!.callTool({ name: 'write_file', arguments: { path, content } });

  it('the first write asks with Approve for this Session; the second lands without a modal; one outside the scope is still refused; the trace names the standing approval', async () => {
    assert.match(text(await client!.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), /auth-refactor/);

    const first = write('src/auth/tokens.ts', 'export const TTL = 60;\n');
    const shown = await answerModal(workbench.page, 'Approve for this Session', join(shots, MODAL_SHOT));
    publishShot(join(shots, MODAL_SHOT));
    assert.match(shown, /Approve for this Session/);
    assert.match(shown, /Open Diff…/);
    assert.match(shown, /src\/auth\/tokens\.ts/);
    assert.equal(errorOf(await first), undefined);

    // A modal now would be a failure: race the call against one appearing, and close it if it does.
    const dialog = workbench.page.locator('.monaco-dialog-box');
    const second = write('src/auth/refresh.ts', 'export const REFRESH = true;\n');
    const winner = await Promise.race([second.then(() => 'call' as const), dialog.waitFor({ state: 'visible', timeout: 60_000 }).then(() => 'modal' as const)]);
    if (winner === 'modal') await answerModal(workbench.page, 'Reject');
    assert.equal(winner, 'call', 'the second in-scope write showed a modal');
    assert.equal(errorOf(await second), undefined, text(await second));
    assert.equal(readFileSync(join(workspace, 'src/auth/refresh.ts'), 'utf8'), 'export const REFRESH = true;\n');

    const invoice = readFileSync(join(workspace, 'src/billing/invoice.ts'), 'utf8');
    const third = await write('src/billing/invoice.ts', 'x\n');
    assert.equal(errorOf(third)?.code, 'SCOPE_VIOLATION');
    assert.equal(await dialog.isVisible(), false);
    assert.equal(readFileSync(join(workspace, 'src/billing/invoice.ts'), 'utf8'), invoice);

    const records = readFileSync(join(workspace, '.orchestration', 'agent_trace.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as TraceRecord);
    const byPath = (path: string) => records.find((r) => r.files[0]?.path === path)!;
    const granted = byPath('src/auth/tokens.ts').metadata.approval;
    const standing = byPath('src/auth/refresh.ts').metadata.approval;
    assert.ok(granted?.granted_standing, JSON.stringify(granted));
    assert.equal(granted.granted_standing.intent, 'auth-refactor');
    assert.ok(standing?.standing, JSON.stringify(standing));
    assert.deepEqual(standing.standing, granted.granted_standing);
    assert.match(standing.approver, /^modal:/);
    assert.equal(byPath('src/auth/refresh.ts').metadata.decision, 'approved');
  });

  it('a delete still asks after Approve for this Session', async () => {
    await client!.callTool({ name: 'read_file', arguments: { path: 'src/auth/refresh.ts' } });
    const pending = client!.callTool({ name: 'delete_file', arguments: { path: 'src/auth/refresh.ts' } });
    const shown = await answerModal(workbench.page, 'Reject');
    assert.doesNotMatch(shown, /Approve for this Session/);
    assert.equal(errorOf(await pending)?.code, 'HITL_REJECT');
  });
});
