import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ApprovalRequest } from '../../../src/core/approval/approver';
import { analyzeCommand } from '../../../src/core/commands/commandPolicy';
import { hookTrustStores } from '../../../src/core/commands/hookTrustRules';
import { denyingApprover } from '../../../src/core/nodeServices';
import { createHarness, type Harness } from '../../support/governorHarness';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../support/stdioMcpClient';

const LOGIN = 'export function login() {\n  return true;\n}\n';

describe('refusals say what happened: headless nobody was asked, rm -rf / is about the filesystem', function () {
  this.timeout(30_000);
  let h: Harness;
  let anchorDir: string;
  let client: Client | undefined;
  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': LOGIN } });
    anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await h.dispose();
    await rm(anchorDir, { recursive: true, force: true });
  });

  it('governor mcp (approve: never): a delete is refused as needing a person nobody could be asked, with how to approve', async () => {
    client = await connectGovernorMcp(h.root, anchorDir);
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
    await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
    const refused = await client.callTool({ name: 'delete_file', arguments: { path: 'src/auth/login.ts' } });
    assert.equal(resultErrorCode(refused), 'HITL_REJECT');
    const message = resultText(refused);
    assert.doesNotMatch(message, /human rejected/i);
    assert.match(message, /needs a person's approval \(Deletes src\/auth\/login\.ts; deletes ask in every approval mode\), and this governor runs headless, with no human to ask, so nobody was asked/);
    assert.match(message, /--approve always/);
    assert.equal(await readFile(join(h.root, 'src/auth/login.ts'), 'utf8'), LOGIN);
  });

  it('the headless approver (hooks with no window, governor check) refuses saying nobody was asked and where one would be', async () => {
    const request: ApprovalRequest = { kind: 'destructive', title: 'Delete?', tool: 'delete_file', files: ['a.ts'], risk: 'high', mutation_class: 'delete', reasons: ['Deletes a.ts'] };
    const decision = await denyingApprover.approve(request);
    assert.equal(decision.approved, false);
    assert.equal(decision.approver, 'none');
    assert.equal(decision.refusal?.code, 'HITL_REJECT');
    assert.doesNotMatch(decision.refusal!.message, /rejected/i);
    assert.match(decision.refusal!.message, /this delete_file call needs a person's approval.*nobody was asked.*VS Code with the Intent Governor extension/);
  });

  it('rm -rf / and rm -rf ~ are refused for what they sweep away, not for the hook approvals store', async () => {
    const paths = { workspaceRoot: '/home/dev/project', homeDir: '/home/dev', trustStores: hookTrustStores({ HOME: '/home/dev' }) };
    for (const [command, why] of [['rm -rf /', /would delete the whole filesystem/], ['rm -rf ~', /would delete the home directory/], ['rm -rf /home', /the system directory \/home/]] as const) {
      const analysis = analyzeCommand(command, paths);
      assert.equal(analysis.verdict, 'denied', command);
      assert.ok(analysis.reasons.some((r) => why.test(r)), `${command}: ${analysis.reasons.join('\n')}`);
      assert.ok(!analysis.reasons.some((r) => /hook approvals store|hooks file|trust hooks/.test(r)), `${command}: ${analysis.reasons.join('\n')}`);
    }
    // A write that only reaches the store is still refused for it.
    const store = analyzeCommand('rm -rf ~/.config/intent-governor', paths);
    assert.equal(store.verdict, 'denied');
    assert.ok(store.reasons.some((r) => /in the hook approvals store: only a person at a terminal may trust hooks/.test(r)), store.reasons.join('\n'));
  });

});
