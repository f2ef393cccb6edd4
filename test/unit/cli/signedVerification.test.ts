import { strict as assert } from 'node:assert';
import { generateKeyPairSync, sign } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { keyIdOf } from '../../../src/core/signing/signingKey';
import { GENESIS_HASH, governanceChainFields, sealRecord, traceChainFields } from '../../../src/core/trace/traceChain';
import { assertAgentTraceFile } from '../../support/agentTraceSchema';
import { createHarness, type Harness } from '../../support/governorHarness';
import { runGovernor } from '../../support/runGovernor';
import { connectGovernorMcp, resultErrorCode, resultText } from '../../support/stdioMcpClient';

const TRACE = '.orchestration/agent_trace.jsonl';
const GOVERNANCE = '.orchestration/governance_log.jsonl';

/**
 * The signed trace end to end, every step a real process: `governor keys` makes the key, `governor mcp`
 * (driven by a real MCP client) writes and signs records in both logs, `governor trace verify` and
 * `governor check --require-signatures` judge them after someone tampered with the log or the signers.
 */
describe('signed trace: governor trace verify and check --require-signatures', function () {
  this.timeout(90_000);
  let h: Harness;
  let base: string;
  let env: NodeJS.ProcessEnv;
  let anchorDir: string;

  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export function login() {}\n' } });
    base = await mkdtemp(join(tmpdir(), 'ig-signed-'));
    anchorDir = join(base, 'anchors');
    env = { INTENT_GOVERNOR_HOME: join(base, 'home') };
  });
  afterEach(async () => {
    await h.dispose();
    await rm(base, { recursive: true, force: true });
  });

  const governor = (...args: string[]) => runGovernor([...args, '--workspace', h.root], { anchorDir, home: join(base, 'os-home'), env });
  const verify = () => governor('trace', 'verify');
  const check = () => governor('check', '--require-signatures');

  /** A governed session over MCP: one change in scope (trace) and one refusal (governance log). */
  async function agentSession(n: number): Promise<void> {
    let client: Client | undefined = await connectGovernorMcp(h.root, anchorDir, [], 'mcp-test-agent', env as Record<string, string>);
    try {
      await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      assert.equal(resultErrorCode(await client.callTool({ name: 'write_file', arguments: { path: `src/auth/file${n}.ts`, content: `export const n = ${n};\n` } })), undefined);
      assert.equal(resultErrorCode(await client.callTool({ name: 'write_file', arguments: { path: 'src/billing/pay.ts', content: 'x\n' } })), 'SCOPE_VIOLATION');
    } finally {
      await client.close();
      client = undefined;
    }
  }

  async function lines(log: string): Promise<string[]> {
    return (await readFile(join(h.root, log), 'utf8')).trim().split('\n');
  }

  /** Appends a record with the right prev_hash (what the chain alone cannot catch), optionally signed. */
  async function appendForged(log: string, signWith?: (text: string) => unknown): Promise<void> {
    const previous = await lines(log);
    const last = JSON.parse(previous.at(-1) as string);
    const fields = log === TRACE ? traceChainFields : governanceChainFields;
    const forged = JSON.parse(previous.at(-1) as string);
    forged.id = 'forged-0000';
    if (log === TRACE) forged.metadata.intent_id = 'forged';
    else forged.message = 'forged';
    const prev = (fields(last) as { hash: string }).hash;
    await appendFile(join(h.root, log), `${sealRecord(forged, prev, fields, signWith)}\n`);
  }

  async function initKey(name: string, ...extra: string[]): Promise<void> {
    const run = await governor('keys', 'init', '--name', name, ...extra);
    assert.equal(run.code, 0, run.stdout + run.stderr);
  }

  it('every record the CLI writes is signed by the published key: verify names the signer and the gate passes', async () => {
    await initKey('alice');
    await agentSession(1);
    await agentSession(2);
    const run = await verify();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^signers: alice \(trusted\)$/m);
    assert.match(run.stdout, /agent_trace\.jsonl: verified \(2 records.*\n {2}signatures: 2 signed by a known signer \(alice 2\)\n {4}lines 1-2: signed by alice \(ed25519:[0-9a-f]{32}\)\n/);
    assert.match(run.stdout, /governance_log\.jsonl: verified \(2 records.*\n {2}signatures: 2 signed by a known signer \(alice 2\)\n/);
    const gate = await check();
    assert.equal(gate.code, 0, gate.stdout);
    assert.match(gate.stdout, /^ok {4}\.orchestration\/agent_trace\.jsonl signatures: 2 signed by a known signer \(alice 2\)$/m);
    assert.match(gate.stdout, /check passed\n$/);
    // The signature lives in metadata, so the trace is still valid Agent Trace.
    await assertAgentTraceFile(join(h.root, TRACE));
    const record = JSON.parse((await lines(TRACE))[0]);
    assert.match(record.metadata.signature.key_id, /^ed25519:[0-9a-f]{32}$/);
    assert.match(JSON.parse((await lines(GOVERNANCE))[0]).signature.sig, /^[A-Za-z0-9+/]{86}==$/);
  });

  it('a forged record appended with the right prev_hash and no signature verifies as a chain but is UNSIGNED, and fails the gate', async () => {
    await initKey('alice');
    await agentSession(1);
    await appendForged(TRACE);
    await appendForged(GOVERNANCE);
    const run = await verify();
    assert.equal(run.code, 0, 'the chain itself is intact');
    assert.match(run.stdout, /agent_trace\.jsonl: verified \(2 records/);
    assert.match(run.stdout, /line 2: UNSIGNED \(no signature, after records that have one\)/);
    const gate = await check();
    assert.equal(gate.code, 1, gate.stdout);
    assert.match(gate.stdout, /^FAIL {2}\.orchestration\/agent_trace\.jsonl signatures: 1 signed by a known signer \(alice 1\), 1 UNSIGNED$/m);
    assert.match(gate.stdout, /^ {8}line 2: UNSIGNED/m);
    assert.match(gate.stdout, /^FAIL {2}\.orchestration\/governance_log\.jsonl signatures: /m);
    assert.match(gate.stdout, /check failed: .*agent_trace\.jsonl has records not signed by a known signer/);
  });

  it('a forged record carrying a copied signature of a known signer is a BAD SIGNATURE', async () => {
    await initKey('alice');
    await agentSession(1);
    const stolen = JSON.parse((await lines(TRACE))[0]).metadata.signature;
    await appendForged(TRACE, () => stolen);
    const run = await verify();
    assert.match(run.stdout, /line 2: BAD SIGNATURE: claims alice \(ed25519:[0-9a-f]{32}\) but does not match the record/);
    const gate = await check();
    assert.equal(gate.code, 1);
    assert.match(gate.stdout, /agent_trace\.jsonl signatures: 1 signed by a known signer \(alice 1\), 1 with a BAD signature/);
  });

  it('a record re-signed with a key nobody published is signed by an UNKNOWN key, and fails the gate', async () => {
    await initKey('alice');
    await agentSession(1);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const keyId = keyIdOf(publicKey);
    await appendForged(TRACE, (text) => ({ key_id: keyId, sig: sign(null, Buffer.from(text), privateKey).toString('base64') }));
    const run = await verify();
    assert.equal(run.code, 0);
    assert.ok(run.stdout.includes(`line 2: signed by an UNKNOWN key ${keyId}`), run.stdout);
    const gate = await check();
    assert.equal(gate.code, 1);
    assert.match(gate.stdout, /agent_trace\.jsonl signatures: 1 signed by a known signer \(alice 1\), 1 signed by an UNKNOWN key/);
  });

  it('a signer whose .pub was removed: its records are signed by an unknown key, and the gate fails', async () => {
    await initKey('alice');
    await agentSession(1);
    await unlink(join(h.root, '.orchestration/signers/alice.pub'));
    const run = await verify();
    assert.match(run.stdout, /^signers: none trusted$/m);
    assert.match(run.stdout, /agent_trace\.jsonl: verified[^\n]*\n {2}signatures: 1 signed by an UNKNOWN key\n {4}line 1: signed by an UNKNOWN key ed25519:/);
    assert.equal((await check()).code, 1);
  });

  it('a rotated key: records of the old key stay valid beside the new key\'s, and the gate passes', async () => {
    await initKey('alice');
    await agentSession(1);
    const rotated = await governor('keys', 'init', '--rotate');
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(rotated.stdout, /created signing key alice-2 .*\n.*the old key alice .* its \.pub stays/);
    await agentSession(2);
    const run = await verify();
    assert.match(run.stdout, /^signers: alice, alice-2 \(trusted\)$/m);
    assert.match(run.stdout, /agent_trace\.jsonl: verified \(2 records[^\n]*\n {2}signatures: 2 signed by a known signer \(alice 1, alice-2 1\)\n {4}line 1: signed by alice \(.*\)\n {4}line 2: signed by alice-2 \(/);
    const gate = await check();
    assert.equal(gate.code, 0, gate.stdout);
  });

  it('a revoked key: what it signed before the revocation verifies; with no revocation point every record is REVOKED, and the gate fails', async () => {
    await initKey('alice');
    await agentSession(1);
    const revoked = await governor('keys', 'revoke', 'alice');
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /to \.orchestration\/signers\/revoked\/alice\.pub/);
    const before = await verify();
    assert.match(before.stdout, /line 1: signed by alice \(ed25519:[0-9a-f]{32}\) before its revocation/);
    assert.equal((await check()).code, 0, 'signed while it was trusted');
    // Without the point (revoked/alice.json), nothing says where the revocation was made: every record is revoked.
    await unlink(join(h.root, '.orchestration/signers/revoked/alice.json'));
    const run = await verify();
    assert.match(run.stdout, /^signers: none trusted; alice \(revoked\)$/m);
    assert.match(run.stdout, /line 1: signed by alice \(ed25519:[0-9a-f]{32}\), a REVOKED key/);
    const gate = await check();
    assert.equal(gate.code, 1);
    assert.match(gate.stdout, /agent_trace\.jsonl signatures: 1 signed by a REVOKED key/);
  });

  it('records from before signing are unsigned (legacy); a writer with signing turned off says so in each record', async () => {
    // An older governor wrote the first records: no signature field at all.
    const old = { version: '1.0', id: 'old-1', timestamp: '2025-01-01T00:00:00.000Z', tool: { name: 'intent-governor', version: '0.0.9' }, files: [], metadata: { kind: 'mutation' } };
    await writeFile(join(h.root, TRACE), `${sealRecord(old, GENESIS_HASH, traceChainFields)}\n`);
    env.INTENT_GOVERNOR_SIGNING = 'off'; // signing turned off: no key is made on first use
    await agentSession(1);
    const run = await verify();
    assert.match(run.stdout, /line 1: unsigned \(legacy: written before records were signed\)\n {4}line 2: UNSIGNED \(the writer said: no signing key\)/);
    const listed = await governor('keys', 'list');
    assert.match(listed.stdout, /this machine: no signing key; records are written unsigned/);
    const gate = await check();
    assert.equal(gate.code, 1);
    assert.match(gate.stdout, /agent_trace\.jsonl signatures: 1 UNSIGNED, 1 unsigned \(legacy\)/);
  });

  it('an agent cannot publish a key of its own: the signers folder is protected', async () => {
    const client = await connectGovernorMcp(h.root, anchorDir, [], 'mcp-test-agent', env as Record<string, string>);
    try {
      await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } });
      const { publicKey } = generateKeyPairSync('ed25519');
      const result = await client.callTool({ name: 'write_file', arguments: { path: '.orchestration/signers/mallory.pub', content: publicKey.export({ format: 'pem', type: 'spki' }).toString() } });
      assert.equal(resultErrorCode(result), 'PROTECTED_PATH');
      assert.match(resultText(result), /\*\*\/\.orchestration\/signers\/\*\*/);
    } finally {
      await client.close();
    }
  });

  it('--json lists every record as runs of verdicts', async () => {
    await initKey('alice');
    await agentSession(1);
    await appendForged(TRACE);
    const run = await governor('trace', 'verify', '--json');
    const [trace] = JSON.parse(run.stdout) as { log: string; signatures: { runs: unknown[]; counts: Record<string, number> } }[];
    assert.deepEqual(trace.signatures.runs.map((r) => (r as { verdict: string }).verdict), ['signed', 'unsigned']);
    assert.equal(trace.signatures.counts.signed, 1);
  });
});
