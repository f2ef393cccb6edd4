import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHarness, type Harness } from '../../support/governorHarness';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../support/stdioMcpClient';

/** A 50 MB frame on governor mcp's stdin is answered, and the session goes on. */
describe('governor mcp: a 50 MB request', function () {
  this.timeout(120_000);
  let h: Harness;
  let anchorDir: string;
  let client: Client;

  before(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export function login() {}\n' } });
    anchorDir = await mkdtemp(join(tmpdir(), 'ig-anchor-'));
    client = await connectGovernorMcp(h.root, anchorDir);
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
  });
  after(async () => {
    await client?.close();
    await h?.dispose();
    await rm(anchorDir, { recursive: true, force: true });
  });

  it('is answered with an error the model can read, and the next call is served', async () => {
    let answer: unknown;
    try {
      answer = await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/big.ts', content: 'x'.repeat(50 * 1024 * 1024) } }, undefined, { timeout: 90_000 });
    } catch (error) {
      answer = error; // a JSON-RPC error is an answer too
    }
    // Within the doors' body cap, so the schema answers it: the content is over the 10 Mi-character limit.
    assert.ok(!(answer instanceof Error), `answered, the session not closed: ${String(answer)}`);
    assert.equal(resultErrorCode(answer), 'INVALID_INPUT');
    assert.match(resultText(answer), /must NOT have more than 10485760 characters/);
    const next = await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
    assert.equal(resultErrorCode(next), undefined, resultText(next));
    assert.match(resultText(next), /export function login/);
  });
});
