import { strict as assert } from 'node:assert';
import { link, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHarness, type Harness } from '../../support/governorHarness';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../support/stdioMcpClient';

/**
 * A hard link an agent made inside its scope to a file outside the workspace (`ln ~/.ssh/id_ed25519 src/auth/k.ts`,
 * on the same file system) has a workspace path but outside bytes: read_file must not return them.
 */
describe('governor mcp: read_file through a hard link', function () {
  this.timeout(60_000);
  let h: Harness;
  let outside: string;
  let client: Client;

  before(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export function login() {}\n' } });
    // Beside the workspace, so on the same file system (a hard link cannot cross one).
    outside = await mkdtemp(join(dirname(await realpath(h.root)), 'ig-outside-'));
    await writeFile(join(outside, 'secret.txt'), 'OUTSIDE-SECRET-CONTENT\n');
    await link(join(outside, 'secret.txt'), join(h.root, 'src/auth/leak.ts'));
    client = await connectGovernorMcp(h.root, join(outside, 'anchors'));
    await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
  });
  after(async () => {
    await client?.close();
    await h?.dispose();
    await rm(outside, { recursive: true, force: true });
  });

  it('refuses to read it, saying why, and returns none of its bytes', async () => {
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/leak.ts' } });
    assert.notEqual(resultErrorCode(result), undefined, resultText(result));
    assert.ok(!resultText(result).includes('OUTSIDE-SECRET-CONTENT'), resultText(result));
    assert.match(resultText(result), /hard link/);
  });

  it('still reads an ordinary file of the scope', async () => {
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } });
    assert.equal(resultErrorCode(result), undefined, resultText(result));
    assert.match(resultText(result), /export function login/);
  });
});
