import { strict as assert } from 'node:assert';
import { chmod, mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSigningKeyStore } from '../../../../src/core/signing/fileSigningKeyStore';
import { doorSigner, publishIfAbsent } from '../../../../src/core/signing/firstUseKey';
import { loadPersonalKey } from '../../../../src/core/signing/personalKey';
import { generateSigningKey } from '../../../../src/core/signing/signingKey';
import { SecretSigningKeyStore, SIGNING_KEY_SECRET } from '../../../../src/host/trace/secretSigningKeyStore';
import { removeTree } from '../../../support/removeTree';

/** One VS Code profile's SecretStorage: strings by key. */
function profileSecrets(legacyKey?: object) {
  const values = new Map<string, string>();
  if (legacyKey) values.set(SIGNING_KEY_SECRET, JSON.stringify(legacyKey));
  return new SecretSigningKeyStore({ get: async (key: string) => values.get(key), store: async (key: string, value: string) => void values.set(key, value) });
}

describe("the person's signing key: one per person and machine, for every VS Code profile and the CLI", () => {
  let home: string;
  let ws: string;
  const keys = () => join(home, 'keys');
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'ig-personal-key-'));
    ws = await mkdtemp(join(tmpdir(), 'ig-personal-ws-'));
  });
  afterEach(async () => {
    await removeTree(home);
    await removeTree(ws);
  });

  it('two profiles and a CLI door sign with the one key the first of them made, and one .pub is published', async () => {
    const first = new FileSigningKeyStore(keys());
    assert.deepEqual(await loadPersonalKey(first, profileSecrets()), {}, 'no key anywhere yet');
    assert.equal(first.createIfAbsent(generateSigningKey('alice@laptop')), true);
    const made = first.loadSync().key!;
    assert.equal(new FileSigningKeyStore(keys()).createIfAbsent(generateSigningKey('alice@laptop')), false, "a second profile's first key loses to the one there");
    const second = await loadPersonalKey(new FileSigningKeyStore(keys()), profileSecrets());
    assert.equal(second.key?.key_id, made.key_id);
    publishIfAbsent(ws, made);
    publishIfAbsent(ws, second.key!);
    const cli = doorSigner(ws, { ...process.env, INTENT_GOVERNOR_HOME: home }, () => undefined)();
    assert.equal(cli?.keyId, made.key_id, "the CLI's doors sign as the same person");
    assert.deepEqual(await readdir(join(ws, '.orchestration', 'signers')), ['alice@laptop.pub']);
  });

  it("takes over the key a profile kept in its secret storage before, so that key's .pub stays the one that signs", async () => {
    const legacy = generateSigningKey('alice@laptop-vscode');
    const loaded = await loadPersonalKey(new FileSigningKeyStore(keys()), profileSecrets(legacy));
    assert.equal(loaded.key?.key_id, legacy.key_id);
    assert.match(loaded.adoptedFrom ?? '', /secret storage/);
    const file = JSON.parse(await readFile(join(keys(), 'signer.json'), 'utf8')) as { key_id: string };
    assert.equal(file.key_id, legacy.key_id, 'the file now holds it, for the other profiles and the CLI');
    const other = await loadPersonalKey(new FileSigningKeyStore(keys()), profileSecrets(generateSigningKey('alice@laptop-vscode-2')));
    assert.equal(other.key?.key_id, legacy.key_id, "a second profile with a key of its own signs with the person's key");
    assert.equal(other.adoptedFrom, undefined);
  });

  it("never replaces a key file it cannot use: records stay unsigned and the problem is said", async function () {
    if (process.platform === 'win32') this.skip();
    const store = new FileSigningKeyStore(keys());
    store.createIfAbsent(generateSigningKey('alice@laptop'));
    await chmod(join(keys(), 'signer.json'), 0o644);
    const loaded = await loadPersonalKey(store, profileSecrets(generateSigningKey('alice@laptop-vscode')));
    assert.equal(loaded.key, undefined);
    assert.match(loaded.problem ?? '', /signer\.json/);
  });
});
