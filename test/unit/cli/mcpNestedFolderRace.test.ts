import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHarness, type Harness } from '../../support/governorHarness';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../support/stdioMcpClient';

const SESSIONS = 12;
const ROUNDS = 8;
const AT_ONCE = 6;

/**
 * Twelve agent sessions, each its own `governor mcp` process, each writing six files at a time into folders
 * that do not exist yet (src/auth/s<N>/d<R>/f<K>.ts): every write is in scope, so every one must land. A
 * folder another call creates while this one is judged is a change in the world, not a reason to refuse. The
 * approver says yes (--approve always), so only the path check can refuse a write.
 */
describe('governor mcp: concurrent writes into new nested folders', function () {
  this.timeout(300_000);
  let h: Harness;
  let anchorDir: string;
  let clients: Client[] = [];

  before(async () => {
    h = await createHarness();
    anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
    clients = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => connectGovernorMcp(h.root, anchorDir, ['--approve', 'always'], `agent-${i}`)));
    for (const client of clients) await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await h?.dispose();
    if (anchorDir) await rm(anchorDir, { recursive: true, force: true });
  });

  it(`lands all ${SESSIONS * ROUNDS * AT_ONCE} in-scope writes, each traced once`, async () => {
    const failures: string[] = [];
    await Promise.all(
      clients.map(async (client, n) => {
        for (let r = 0; r < ROUNDS; r++) {
          const results = await Promise.all(
            Array.from({ length: AT_ONCE }, (_, k) => client.callTool({ name: 'write_file', arguments: { path: `src/auth/s${n}/d${r}/f${k}.ts`, content: `export const f = ${k};\n` } })),
          );
          results.forEach((result, k) => {
            if (resultErrorCode(result) !== undefined) failures.push(`s${n}/d${r}/f${k}: ${resultText(result)}`);
          });
        }
      }),
    );
    assert.deepEqual(failures, []);
    const records = (await readFile(join(h.root, '.orchestration/agent_trace.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(records.length, SESSIONS * ROUNDS * AT_ONCE);
  });
});
