import { strict as assert } from 'node:assert';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSigningKey, recordSignerFor } from '../../../../src/core/signing/signingKey';
import { loadWorkspaceSigners, publishSigner, REVOKED_DIR, revokeSigner } from '../../../../src/core/signing/workspaceSigners';
import { workspaceLogPositions } from '../../../../src/core/trace/logPosition';
import { GOVERNANCE_LOG_FILE, TRACE_FILE } from '../../../../src/core/trace/traceFiles';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { verifyWorkspaceLogs } from '../../../../src/core/trace/workspaceVerify';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';
import { describeInVerifyModes } from '../../../support/verifyModes';

/** A revoked key's records up to its revocation point verify; after it, or where the point does not fit the log, they do not. */
describeInVerifyModes('signature audit: a revocation takes effect from where it was made', () => {
  let ws: TraceWorkspace;
  const key = generateSigningKey('bob');

  const write = async (n: number) => {
    const sink = new JsonlTraceSink({ workspaceRoot: ws.root, toolVersion: 'test', anchors: ws.anchors, fsync: 'never', signer: () => recordSignerFor(key) });
    for (let i = 0; i < n; i++) await sink.recordMutation(mutationEvent());
    await sink.close();
  };
  const verdicts = async () => {
    const [trace] = await verifyWorkspaceLogs(ws.root, ws.anchors, { signers: await loadWorkspaceSigners(ws.root) });
    return trace.signatures?.runs.map((r) => [r.from, r.to, r.verdict, r.reason]);
  };

  beforeEach(async () => {
    ws = await traceWorkspace();
    await publishSigner(ws.root, key.name, key.public_key);
    await write(3);
  });
  afterEach(() => ws.dispose());

  it('records at or before the point are signed before revocation; later ones are revoked', async () => {
    const { logs } = await workspaceLogPositions(ws.root);
    assert.equal(logs[TRACE_FILE].records, 3);
    assert.equal((await revokeSigner(ws.root, 'bob', logs)).ok, true);
    assert.deepEqual(await verdicts(), [[1, 3, 'signed_before_revocation', undefined]]);
    // A writer that does not see the revocation (a stale clone, a copied key) signs two more.
    await rename(join(ws.root, REVOKED_DIR), join(ws.root, 'revoked-elsewhere'));
    await write(2);
    await rename(join(ws.root, 'revoked-elsewhere'), join(ws.root, REVOKED_DIR));
    assert.deepEqual(await verdicts(), [
      [1, 3, 'signed_before_revocation', undefined],
      [4, 5, 'revoked', 'after its revocation'],
    ]);
  });

  it('fails closed: a point whose last record is not on its line, or no point at all, leaves every record revoked', async () => {
    const { logs } = await workspaceLogPositions(ws.root);
    const bogus = `sha256:${'0'.repeat(64)}`;
    // Both logs held records at the point, and neither is where it says: the trace was rewritten before it.
    const wrongHash = { ...logs, [TRACE_FILE]: { records: 3, last_hash: bogus }, [GOVERNANCE_LOG_FILE]: { records: 1, last_hash: bogus } };
    assert.equal((await revokeSigner(ws.root, 'bob', wrongHash)).ok, true);
    assert.deepEqual(await verdicts(), [[1, 3, 'revoked', 'its revocation point does not match this log']]);
  });

  it("judges each log by its own position: the governance log being empty at the point does not excuse the trace's mismatch", async () => {
    const bogus = `sha256:${'0'.repeat(64)}`;
    assert.equal((await revokeSigner(ws.root, 'bob', { [TRACE_FILE]: { records: 3, last_hash: bogus }, [GOVERNANCE_LOG_FILE]: { records: 0 } })).ok, true);
    assert.deepEqual(await verdicts(), [[1, 3, 'revoked', 'its revocation point does not match this log']]);
  });

  it('a point taken before the records it names were written (an earlier line) does not reach past that line', async () => {
    const lines = (await readFile(ws.trace, 'utf8')).trim().split('\n');
    const second = JSON.parse(lines[1]).metadata.hash as string;
    assert.equal((await revokeSigner(ws.root, 'bob', { [TRACE_FILE]: { records: 2, last_hash: second } })).ok, true);
    assert.deepEqual(await verdicts(), [
      [1, 2, 'signed_before_revocation', undefined],
      [3, 3, 'revoked', 'after its revocation'],
    ]);
  });

  it('without a revocation point every record is revoked, as before', async () => {
    assert.equal((await revokeSigner(ws.root, 'bob')).ok, true);
    assert.deepEqual(await verdicts(), [[1, 3, 'revoked', undefined]]);
  });
});
