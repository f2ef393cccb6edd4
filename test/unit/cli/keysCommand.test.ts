import { strict as assert } from 'node:assert';
import { generateKeyPairSync } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, type Harness } from '../../support/governorHarness';
import { runGovernor } from '../../support/runGovernor';
import { connectGovernorMcp } from '../../support/stdioMcpClient';

describe('governor keys', function () {
  this.timeout(60_000);
  let h: Harness;
  let base: string;
  let env: NodeJS.ProcessEnv;
  const keysDir = () => join(base, 'home', 'keys');
  const keys = (...args: string[]) => runGovernor(['keys', ...args, '--workspace', h.root], { anchorDir: join(base, 'anchors'), home: join(base, 'os-home'), env });

  beforeEach(async () => {
    h = await createHarness();
    base = await mkdtemp(join(tmpdir(), 'ig-keys-'));
    env = { INTENT_GOVERNOR_HOME: join(base, 'home') };
  });
  afterEach(async () => {
    await h.dispose();
    await rm(base, { recursive: true, force: true });
  });

  it('init keeps the private key in a 0600 file in a 0700 folder and publishes only the public key', async () => {
    const run = await keys('init', '--name', 'alice');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^created signing key alice \(ed25519:[0-9a-f]{32}\) in .*keys\/signer\.json\npublished \.orchestration\/signers\/alice\.pub: commit it/);
    assert.equal((await stat(keysDir())).mode & 0o777, 0o700);
    assert.equal((await stat(join(keysDir(), 'signer.json'))).mode & 0o777, 0o600);
    const pub = await readFile(join(h.root, '.orchestration/signers/alice.pub'), 'utf8');
    assert.match(pub, /^-----BEGIN PUBLIC KEY-----\n[^]*\n-----END PUBLIC KEY-----\n$/);
    assert.doesNotMatch(pub, /PRIVATE/);
    const again = await keys('init');
    assert.equal(again.code, 0);
    assert.match(again.stdout, /this machine already signs with alice .*\nalready published as \.orchestration\/signers\/alice\.pub/);
  });

  it('does not sign with a key others can read, and says why', async () => {
    await keys('init', '--name', 'alice');
    await chmod(join(keysDir(), 'signer.json'), 0o644);
    const listed = await keys('list');
    assert.match(listed.stdout, /^this machine: .*signer\.json can be read by others \(mode 644\): the signing key is not used/m);
    const client = await connectGovernorMcp(h.root, join(base, 'anchors'), [], 'mcp-test-agent', env as Record<string, string>);
    try {
      await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/a.ts', content: 'a\n' } });
    } finally {
      await client.close();
    }
    const record = JSON.parse((await readFile(join(h.root, '.orchestration/agent_trace.jsonl'), 'utf8')).trim());
    assert.deepEqual(record.metadata.signature, { unsigned: 'no signing key' });
  });

  it('--rotate publishes a new key beside the old one and keeps the old private key aside, still 0600', async () => {
    await keys('init', '--name', 'alice');
    const run = await keys('init', '--rotate');
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((await readdir(join(h.root, '.orchestration/signers'))).sort(), ['alice-2.pub', 'alice.pub']);
    const retired = await readdir(join(keysDir(), 'retired'));
    assert.equal(retired.length, 1);
    assert.equal((await stat(join(keysDir(), 'retired', retired[0]))).mode & 0o777, 0o600);
    const listed = await keys('list');
    assert.match(listed.stdout, /^this machine: alice-2 .*published as \.orchestration\/signers\/alice-2\.pub$/m);
    assert.match(listed.stdout, /^ {2}trusted {2}alice-2 .*\(this machine\)$/m);
    assert.match(listed.stdout, /^ {2}trusted {2}alice {4}ed25519:/m);
  });

  it('trust publishes another signer\'s .pub; refuses a private key and a name that holds another key', async () => {
    const ci = generateKeyPairSync('ed25519');
    const pubFile = join(base, 'ci-runner.pub');
    await writeFile(pubFile, ci.publicKey.export({ format: 'pem', type: 'spki' }));
    const run = await keys('trust', pubFile);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^trusted ci-runner \(ed25519:[0-9a-f]{32}\): wrote \.orchestration\/signers\/ci-runner\.pub; commit it$/m);
    assert.match((await keys('trust', pubFile)).stdout, /is already trusted \(\.orchestration\/signers\/ci-runner\.pub\)/);

    const privateFile = join(base, 'oops.pub');
    await writeFile(privateFile, ci.privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const oops = await keys('trust', privateFile);
    assert.equal(oops.code, 1);
    assert.match(oops.stderr, /a PRIVATE key/);

    const other = join(base, 'other.pub');
    await writeFile(other, generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }));
    const taken = await keys('trust', other, '--name', 'ci-runner');
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /ci-runner\.pub already holds another key\. Choose another name/);

    const initTaken = await keys('init', '--name', 'ci-runner');
    assert.equal(initTaken.code, 1, 'a new key under a taken name is refused');
    await assert.rejects(stat(join(keysDir(), 'signer.json')), 'and no key was made');
  });

  it('revoke moves the .pub into revoked/ beside where the logs stood, and refuses a signer that does not exist', async () => {
    await keys('init', '--name', 'alice');
    assert.equal((await keys('revoke', 'alice')).code, 0);
    assert.deepEqual((await readdir(join(h.root, '.orchestration/signers/revoked'))).sort(), ['alice.json', 'alice.pub']);
    const again = await keys('revoke', 'alice');
    assert.equal(again.code, 1);
    assert.match(again.stderr, /alice is already revoked \(\.orchestration\/signers\/revoked\/alice\.pub\)/);
    const listed = await keys('list');
    assert.match(listed.stdout, /^this machine: alice .*REVOKED in this workspace/m);
    const missing = await keys('revoke', 'bob');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no \.orchestration\/signers\/bob\.pub/);
    assert.equal((await keys('trust', join(h.root, '.orchestration/signers/revoked/alice.pub'), '--name', 'alice-again')).code, 1, 'a revoked key is not trusted again by a new name');
  });

  it('rejects unknown modes, stray options and bad names with exit 2', async () => {
    assert.equal((await keys('frobnicate')).code, 2);
    assert.equal((await keys('list', '--rotate')).code, 2);
    assert.equal((await keys('init', '--name', '../evil')).code, 2);
    assert.equal((await keys('trust')).code, 2);
  });
});
