import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHarness, type Harness } from '../../support/governorHarness';
import { runGovernor } from '../../support/runGovernor';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../support/stdioMcpClient';

/**
 * What was refused can be read back: an agent over `governor mcp` (a real MCP client) is refused a destructive
 * command nobody could approve, an out-of-scope delete and a denied command, and `governor trace refusals` lists
 * each with its code and the command it asked to run.
 */
describe('governor trace refusals (a real MCP client, the real CLI)', function () {
  this.timeout(60_000);
  let h: Harness;
  let anchorDir: string;
  let client: Client | undefined;
  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/a.ts': 'a\n', 'src/other/b.ts': 'b\n' } });
    anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await h.dispose();
    await rm(anchorDir, { recursive: true, force: true });
  });

  it('lists the refused commands with their code and text; --json gives the records; --intent filters', async () => {
    client = await connectGovernorMcp(h.root, anchorDir);
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
    for (const [command, code] of [['rm -rf src/auth', 'HITL_REJECT'], ['rm -rf src', 'SCOPE_VIOLATION'], ['sudo ls', 'COMMAND_DENIED']] as const) {
      const result = await client.callTool({ name: 'run_command', arguments: { command } });
      assert.equal(resultErrorCode(result), code, resultText(result));
    }
    await client.close();
    client = undefined;

    const table = await runGovernor(['trace', 'refusals', '--workspace', h.root], { anchorDir });
    assert.equal(table.code, 0, table.stderr);
    const rows = table.stdout.trim().split('\n');
    assert.match(rows[0], /^LINE\s+TIME\s+DECISION\s+CODE\s+AGENT\s+INTENT\s+TOOL\s+WHAT WAS ASKED$/);
    assert.match(table.stdout, /HITL_REJECT\s.*auth-refactor\s+run_command\s+\$ rm -rf src\/auth$/m);
    assert.match(table.stdout, /SCOPE_VIOLATION\s.*\$ rm -rf src$/m);
    assert.match(table.stdout, /COMMAND_DENIED\s.*\$ sudo ls$/m);
    assert.equal(rows.at(-1), '3 refusals');

    const json = await runGovernor(['trace', 'refusals', '--json', '--workspace', h.root], { anchorDir });
    const records = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { command?: string; paths?: string[] });
    assert.deepEqual(records.map((r) => [r.command, r.paths]), [['rm -rf src/auth', ['src/auth']], ['rm -rf src', ['src']], ['sudo ls', []]]);
    const none = await runGovernor(['trace', 'refusals', '--intent', 'docs', '--workspace', h.root], { anchorDir });
    assert.equal(none.stdout.trim().split('\n').at(-1), '0 refusals');
  });
});
