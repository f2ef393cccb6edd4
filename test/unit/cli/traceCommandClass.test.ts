import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { assertAgentTraceFile } from '../../support/agentTraceSchema';
import { createHarness, type Harness } from '../../support/governorHarness';
import { runGovernor } from '../../support/runGovernor';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../support/stdioMcpClient';

const SESSION = `export function isExpired(token: string, now: number): boolean {
  const parts = token.split(':');
  return Number(parts[1]) < now;
}
`;

describe('governor trace --class (a real MCP client, the real CLI)', function () {
  this.timeout(60_000);
  let h: Harness;
  let anchorDir: string;
  let client: Client | undefined;
  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/session.ts': SESSION } });
    anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await h.dispose();
    await rm(anchorDir, { recursive: true, force: true });
  });

  it('traces a rename as AST_REFACTOR and a new branch as INTENT_EVOLUTION, and --class lists each', async () => {
    client = await connectGovernorMcp(h.root, anchorDir);
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
    await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/session.ts' } });
    const rename = await client.callTool({ name: 'edit_file', arguments: { path: 'src/auth/session.ts', edits: [{ search: 'const parts', replace: 'const fields' }, { search: 'parts[1]', replace: 'fields[1]' }] } });
    assert.equal(resultErrorCode(rename), undefined, resultText(rename));
    const branch = await client.callTool({ name: 'edit_file', arguments: { path: 'src/auth/session.ts', edits: [{ search: "split(':');\n", replace: "split(':');\n  if (fields.length !== 3) return true;\n" }] } });
    assert.equal(resultErrorCode(branch), undefined, resultText(branch));
    const script = await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/rotate.py', content: 'def rotate(key):\n    return key[::-1]\n' } });
    assert.equal(resultErrorCode(script), undefined, resultText(script));
    await client.close();
    client = undefined;

    const records = assertAgentTraceFile(join(h.root, '.orchestration/agent_trace.jsonl')) as { id: string; metadata: Record<string, string> }[];
    const classes = records.map((r) => [r.metadata.operation, r.metadata.mutation_class, r.metadata.mutation_class_rule]);
    assert.deepEqual(classes, [
      ['edit', 'AST_REFACTOR', 'syntax-tree'],
      ['edit', 'INTENT_EVOLUTION', 'syntax-tree'],
      ['write', 'INTENT_EVOLUTION', 'created'],
    ]);
    assert.match(records[1].metadata.mutation_class_reason, /changes `isExpired`/);

    const refactors = await runGovernor(['trace', '--class', 'AST_REFACTOR', '--json', '--workspace', h.root], { anchorDir });
    assert.equal(refactors.code, 0, refactors.stderr);
    assert.deepEqual(refactors.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id), [records[0].id]);

    const evolutions = await runGovernor(['trace', '--class', 'INTENT_EVOLUTION', '--workspace', h.root], { anchorDir });
    assert.equal(evolutions.code, 0, evolutions.stderr);
    assert.match(evolutions.stdout, /src\/auth\/session\.ts/);
    assert.match(evolutions.stdout, /src\/auth\/rotate\.py/);
    assert.match(evolutions.stdout, /^2 records$/m);
  });

  it('refuses a class it does not know, naming the two it does', async () => {
    const run = await runGovernor(['trace', '--class', 'refactor', '--workspace', h.root], { anchorDir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--class 'refactor' is not one of AST_REFACTOR, INTENT_EVOLUTION/);
  });
});
