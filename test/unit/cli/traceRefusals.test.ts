import { strict as assert } from 'node:assert';
import { mcpClientWorkspace, type McpClientWorkspace } from '../../support/mcpClientWorkspace';
import { runGovernor } from '../../support/runGovernor';
import { resultErrorCode, resultText } from '../../support/stdioMcpClient';

/**
 * What was refused can be read back: an agent over `governor mcp` (a real MCP client) is refused a destructive
 * command nobody could approve, an out-of-scope delete and a denied command, and `governor trace refusals` lists
 * each with its code and the command it asked to run.
 */
describe('governor trace refusals (a real MCP client, the real CLI)', function () {
  this.timeout(60_000);
  let w: McpClientWorkspace;
  beforeEach(async () => {
    w = await mcpClientWorkspace({ 'src/auth/a.ts': 'a\n', 'src/other/b.ts': 'b\n' });
  });
  afterEach(async () => w.dispose());

  it('lists the refused commands with their code and text; --json gives the records; --intent filters', async () => {
    const client = await w.connect();
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
    for (const [command, code] of [['rm -rf src/auth', 'HITL_REJECT'], ['rm -rf src', 'SCOPE_VIOLATION'], ['sudo ls', 'COMMAND_DENIED']] as const) {
      const result = await client.callTool({ name: 'run_command', arguments: { command } });
      assert.equal(resultErrorCode(result), code, resultText(result));
    }
    await w.disconnect();
    const { anchorDir } = w;
    const root = w.h.root;

    const table = await runGovernor(['trace', 'refusals', '--workspace', root], { anchorDir });
    assert.equal(table.code, 0, table.stderr);
    const rows = table.stdout.trim().split('\n');
    assert.match(rows[0], /^LINE\s+TIME\s+DECISION\s+CODE\s+AGENT\s+INTENT\s+TOOL\s+WHAT WAS ASKED$/);
    assert.match(table.stdout, /HITL_REJECT\s.*auth-refactor\s+run_command\s+\$ rm -rf src\/auth$/m);
    assert.match(table.stdout, /SCOPE_VIOLATION\s.*\$ rm -rf src$/m);
    assert.match(table.stdout, /COMMAND_DENIED\s.*\$ sudo ls$/m);
    assert.equal(rows.at(-1), '3 refusals');

    const json = await runGovernor(['trace', 'refusals', '--json', '--workspace', root], { anchorDir });
    const records = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { command?: string; paths?: string[] });
    assert.deepEqual(records.map((r) => [r.command, r.paths]), [['rm -rf src/auth', ['src/auth']], ['rm -rf src', ['src']], ['sudo ls', []]]);
    const none = await runGovernor(['trace', 'refusals', '--intent', 'docs', '--workspace', root], { anchorDir });
    assert.equal(none.stdout.trim().split('\n').at(-1), '0 refusals');
  });
});
