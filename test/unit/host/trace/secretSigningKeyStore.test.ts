import { strict as assert } from 'node:assert';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CurrentSigner } from '../../../../src/core/signing/currentSigner';
import { setUpSigningKey } from '../../../../src/core/signing/signerSetup';
import { loadWorkspaceSigners } from '../../../../src/core/signing/workspaceSigners';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { verifyWorkspaceLogs } from '../../../../src/core/trace/workspaceVerify';
import { SecretSigningKeyStore, SIGNING_KEY_SECRET } from '../../../../src/host/trace/secretSigningKeyStore';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

/** VS Code's SecretStorage as the extension sees it: strings by key. */
function fakeSecrets() {
  const values = new Map<string, string>();
  return { values, get: async (key: string) => values.get(key), store: async (key: string, value: string) => void values.set(key, value) };
}

describe('the extension\'s signing key (SecretStorage)', () => {
  let ws: TraceWorkspace;
  beforeEach(async () => {
    ws = await traceWorkspace();
  });
  afterEach(() => ws.dispose());

  it('keeps the private key in secret storage only, signs from the moment it is made, and a rotation keeps the old records valid', async () => {
    const secrets = fakeSecrets();
    const store = new SecretSigningKeyStore(secrets);
    const current = new CurrentSigner();
    const sink = new JsonlTraceSink({ workspaceRoot: ws.root, toolVersion: 'test', anchors: ws.anchors, fsync: 'never', signer: current.get });
    await sink.recordMutation(mutationEvent()); // before any key: unsigned

    const made = await setUpSigningKey(ws.root, store, { name: 'alice@laptop-vscode', defaultName: 'x', rotate: false });
    assert.equal(made.kind, 'created');
    if (made.kind !== 'created') return;
    current.use(made.key);
    await sink.recordMutation(mutationEvent());
    assert.match(secrets.values.get(SIGNING_KEY_SECRET) ?? '', /BEGIN PRIVATE KEY/);
    assert.deepEqual(await readdir(join(ws.root, '.orchestration/signers')), ['alice@laptop-vscode.pub']);

    const rotated = await setUpSigningKey(ws.root, store, { defaultName: 'x', rotate: true });
    assert.equal(rotated.kind, 'created');
    if (rotated.kind !== 'created') return;
    assert.equal(rotated.key.name, 'alice@laptop-vscode-2');
    assert.ok(secrets.values.has(`intentGovernor.signingKey.retired.${made.key.key_id}`), 'the old key is set aside, not lost');
    current.use(rotated.key);
    await sink.recordMutation(mutationEvent());
    await sink.close();

    const [trace] = await verifyWorkspaceLogs(ws.root, ws.anchors, { signers: await loadWorkspaceSigners(ws.root) });
    assert.deepEqual(trace.signatures?.runs.map((r) => [r.verdict, r.signer ?? r.reason]), [
      ['unsigned', 'the writer said: no signing key'],
      ['signed', 'alice@laptop-vscode'],
      ['signed', 'alice@laptop-vscode-2'],
    ]);
  });

  it('a damaged secret is reported, not used', async () => {
    const secrets = fakeSecrets();
    secrets.values.set(SIGNING_KEY_SECRET, '{"name":"x"}');
    const loaded = await new SecretSigningKeyStore(secrets).load();
    assert.equal(loaded.key, undefined);
    assert.match(loaded.problem ?? '', /the field 'key_id' is missing; run Initialize Signing Key/);
  });
});
