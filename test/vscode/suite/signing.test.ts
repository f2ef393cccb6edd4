import * as assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keyIdOf, parsePublicKey } from '../../../src/core/signing/signingKey';
import { activateGovernor, waitFor, workspaceUri } from './extensionUnderTest';

const agent = { name: 'signing-test' };

describe('Signed by default in VS Code', () => {
  // That opening a folder writes no key into it is shown on a fresh folder (test/e2e/firstContact.e2e.test.ts).
  it('the first governed change makes a key, publishes its public half, and the record is signed by it', async () => {
    const api = await activateGovernor();
    const signers = workspaceUri('.orchestration', 'signers').fsPath;
    const published = async () => (await readdir(signers).catch(() => [] as string[])).filter((f) => f.endsWith('.pub'));
    assert.ok((await api.call({ tool: 'select_active_intent', input: { intent_id: 'auth-refactor' }, session_id: 'signing-test', agent })).ok);
    const written = await api.call({ tool: 'write_file', input: { path: 'src/auth/signed.ts', content: 'export const signed = true;\n' }, session_id: 'signing-test', agent });
    assert.ok(written.ok, written.ok ? '' : written.error.message);
    const pub = await waitFor('the published key of this window', async () => (await published())[0], 15_000);
    const key = parsePublicKey(await readFile(`${signers}/${pub}`, 'utf8'));
    assert.ok(typeof key !== 'string', String(key));
    const lines = (await readFile(workspaceUri('.orchestration', 'agent_trace.jsonl').fsPath, 'utf8')).trim().split('\n');
    const record = lines.map((l) => JSON.parse(l) as { metadata: { invocation_id?: string; signature?: { key_id?: string } } }).find((r) => r.metadata.invocation_id === written.invocation_id);
    assert.equal(record?.metadata.signature?.key_id, keyIdOf(key));
    // One signer per person and machine: the key is the governor home's, the one the CLI and every profile sign with.
    const home = process.env.INTENT_GOVERNOR_HOME;
    assert.ok(home, 'the suite runs with its own governor home');
    const personal = JSON.parse(await readFile(join(home, 'keys', 'signer.json'), 'utf8')) as { key_id: string; private_key?: string };
    assert.equal(personal.key_id, keyIdOf(key), "the window signs with the person's key in the governor home");
  });
});
