import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHarness, type Harness } from '../../support/governorHarness';
import { runGovernor } from '../../support/runGovernor';
import { hookFixture, runHook } from '../../support/runHook';
import { connectGovernorMcp, resultErrorCode } from '../../support/stdioMcpClient';
import { removeTree } from '../../support/removeTree';

const TRACE = '.orchestration/agent_trace.jsonl';

/**
 * Signed by default at the CLI's doors: on a machine with no key, the first record `governor mcp` writes is
 * signed with a key it makes then, published in the workspace and announced once; nothing to set up first.
 */
describe('governor mcp: records are signed by default', function () {
  this.timeout(120_000);
  let h: Harness;
  let base: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export function login() {}\n' } });
    base = await mkdtemp(join(tmpdir(), 'ig-signed-default-'));
    env = { INTENT_GOVERNOR_HOME: join(base, 'home') };
  });
  afterEach(async () => {
    await h.dispose();
    await removeTree(base);
  });

  /** One session writing one file; returns what the governor printed on stderr. */
  async function session(n: number, extraEnv: Record<string, string> = {}): Promise<string> {
    const client: Client = await connectGovernorMcp(h.root, join(base, 'anchors'), ['--approve', 'always'], 'mcp-test-agent', { ...env, ...extraEnv });
    let stderr = '';
    ((client.transport as unknown as { stderr: NodeJS.ReadableStream | null }).stderr)?.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      assert.equal(resultErrorCode(await client.callTool({ name: 'write_file', arguments: { path: `src/auth/f${n}.ts`, content: `export const n = ${n};\n` } })), undefined);
    } finally {
      await client.close();
    }
    return stderr;
  }

  it('makes a private key on first use, publishes it, says so once, and every record is signed by it', async () => {
    const first = await session(1);
    assert.match(first, /records are signed from now on with your new key (\S+) \(ed25519:[0-9a-f]{32}\), kept private in .*signer\.json/);
    assert.match(first, /Its public half is now \.orchestration\/signers\/\S+\.pub: commit it/);
    const second = await session(2);
    assert.doesNotMatch(second, /Intent Governor: /, 'told once');
    assert.equal((await stat(join(base, 'home', 'keys', 'signer.json'))).mode & 0o777, 0o600);
    assert.equal((await readdir(join(h.root, '.orchestration', 'signers'))).filter((f) => f.endsWith('.pub')).length, 1);
    const records = (await readFile(join(h.root, TRACE), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { metadata: { signature: { key_id?: string } } });
    assert.equal(records.length, 2);
    for (const r of records) assert.match(r.metadata.signature.key_id ?? '', /^ed25519:[0-9a-f]{32}$/);
    const gate = await runGovernor(['check', '--require-signatures', '--workspace', h.root], { anchorDir: join(base, 'anchors'), home: join(base, 'os-home'), env });
    assert.equal(gate.code, 0, gate.stdout + gate.stderr);
    assert.match(gate.stdout, /agent_trace\.jsonl signatures: 2 signed by a known signer/);
  });

  it("an agent's hook that makes the key keeps the notice off the agent's stderr; the person's next governor command says it, once", async () => {
    const payload = hookFixture('gemini', 'after-write-file', h.root);
    await writeFile(join(h.root, 'src/auth/token.ts'), 'export const token = 1;\n');
    const hookEnv = { ...env, INTENT_GOVERNOR_ANCHOR_DIR: join(base, 'anchors'), INTENT_GOVERNOR_INTENT: 'auth-refactor' };
    assert.equal((await runHook('gemini', hookFixture('gemini', 'before-write-file-in-scope', h.root), [], hookEnv)).code, 0);
    const post = await runHook('gemini', payload, [], hookEnv);
    assert.equal(post.code, 0, post.stderr);
    assert.doesNotMatch(post.stderr, /signing key|signed from now on/u);
    assert.ok((await stat(join(base, 'home', 'keys', 'signer.json'))).isFile(), 'the key was made');
    const next = await runGovernor(['keys', 'list'], { anchorDir: join(base, 'anchors'), home: join(base, 'os-home'), env });
    assert.match(next.stderr, /records are signed from now on with your new key/u);
    const again = await runGovernor(['keys', 'list'], { anchorDir: join(base, 'anchors'), home: join(base, 'os-home'), env });
    assert.doesNotMatch(again.stderr, /signed from now on/u, 'told once');
  });

  it('INTENT_GOVERNOR_SIGNING=off makes no key: the records say they are unsigned', async () => {
    await session(1, { INTENT_GOVERNOR_SIGNING: 'off' });
    const record = JSON.parse((await readFile(join(h.root, TRACE), 'utf8')).trim()) as { metadata: { signature: unknown } };
    assert.deepEqual(record.metadata.signature, { unsigned: 'no signing key' });
    await assert.rejects(stat(join(base, 'home', 'keys', 'signer.json')), /ENOENT/);
  });
});
