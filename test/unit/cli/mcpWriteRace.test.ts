import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHarness, type Harness } from '../../support/governorHarness';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../support/stdioMcpClient';

const AGENTS = 8;
const ROUNDS = 24;

/**
 * Eight agent sessions, each its own `governor mcp` process, read the same file and all write it with the
 * hash they read. Whatever the interleaving, exactly one write per round may succeed: every other agent gets
 * STALE_FILE, and no acknowledged, traced change is silently overwritten.
 */
describe('governor mcp: racing writers across processes', function () {
  this.timeout(180_000);
  let h: Harness;
  let anchorDir: string;
  let clients: Client[] = [];

  before(async () => {
    h = await createHarness({ files: { 'src/auth/shared.ts': 'base\n' } });
    anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
    clients = await Promise.all(Array.from({ length: AGENTS }, (_, i) => connectGovernorMcp(h.root, anchorDir, [], `agent-${i}`)));
    for (const client of clients) await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await h?.dispose();
    if (anchorDir) await rm(anchorDir, { recursive: true, force: true });
  });

  it(`lets exactly one of ${AGENTS} write_file/edit_file calls from the same read win, in each of ${ROUNDS} rounds`, async () => {
    const wins: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const reads = await Promise.all(clients.map((c) => c.callTool({ name: 'read_file', arguments: { path: 'src/auth/shared.ts' } })));
      const hashes = reads.map((r) => /content_hash (sha256:[0-9a-f]{64})/.exec(resultText(r))?.[1]);
      const current = await readFile(join(h.root, 'src/auth/shared.ts'), 'utf8');
      const results = await Promise.all(
        clients.map((client, i) => {
          const content = `round ${round} agent ${i}\n`;
          const args =
            i % 2 === 0
              ? { name: 'write_file', arguments: { path: 'src/auth/shared.ts', content, expected_content_hash: hashes[i] } }
              : { name: 'edit_file', arguments: { path: 'src/auth/shared.ts', edits: [{ search: current, replace: content }], expected_content_hash: hashes[i] } };
          return client.callTool(args);
        }),
      );
      const codes = results.map(resultErrorCode);
      const winners = codes.flatMap((code, i) => (code === undefined ? [i] : []));
      assert.equal(winners.length, 1, `round ${round}: ${winners.length} writers succeeded (${codes.join(', ')})`);
      assert.deepEqual(codes.filter((c) => c !== undefined), Array(AGENTS - 1).fill('STALE_FILE'), `round ${round}`);
      const expected = `round ${round} agent ${winners[0]}\n`;
      assert.equal(await readFile(join(h.root, 'src/auth/shared.ts'), 'utf8'), expected);
      wins.push(expected);
    }
    // One trace record per acknowledged change, in order, each describing what is (or was) on disk.
    const records = (await readFile(join(h.root, '.orchestration/agent_trace.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { metadata: { files: { after_hash: string }[] } });
    assert.equal(records.length, ROUNDS);
  });
});
