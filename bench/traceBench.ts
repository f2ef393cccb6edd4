import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { RecordSigner } from '../src/core/signing/recordSignature';
import { generateSigningKey, recordSignerFor, type SigningKey } from '../src/core/signing/signingKey';
import { loadWorkspaceSigners, publishSigner } from '../src/core/signing/workspaceSigners';
import { FileAnchorStore } from '../src/core/trace/anchorStore';
import type { FsyncMode } from '../src/core/trace/chainedLog';
import { GENESIS_HASH, sealRecord, traceChainFields } from '../src/core/trace/traceChain';
import { TRACE_FILE, traceFilePath } from '../src/core/trace/traceFiles';
import { buildMutationRecord } from '../src/core/trace/traceRecord';
import { JsonlTraceSink } from '../src/core/trace/traceWriter';
import { lineCheckDefaults } from '../src/core/trace/parallelLineChecks';
import { verifyLog } from '../src/core/trace/traceVerify';
import { verifyWorkspaceLogs } from '../src/core/trace/workspaceVerify';
import type { MutationEvent } from '../src/core/trace/traceSink';
import { writeSyntheticTrace, type SyntheticSigning } from '../test/support/syntheticTrace';
import { checkBaseTables } from './checkBaseBench';
import { elapsedMs, percentile, type BenchSuite, type BenchTable } from './table';

const APPENDS = 2000;
const WARMUP = 200;
const VERIFY_RECORDS = 100_000;
/** Writers of the signed verify traces with more than one: each its own key, all published. */
const VERIFY_WRITERS = 10;

function event(i: number): MutationEvent {
  return {
    timestamp: new Date().toISOString(),
    invocation_id: `bench-${i}`,
    session_id: 'bench',
    agent: { name: 'bench-agent', model_id: 'bench-model' },
    intent_id: 'INT-BENCH',
    tool: 'edit_file',
    mutation_class: 'edit',
    files: [{ path: 'src/bench.ts', before: 'a\nb\nc\n', after: `a\nb${i}\nc\nd\n` }],
    decision: 'allow',
  };
}

/** One acknowledged record at a time, as the post-hook chain appends them. */
async function appendRun(root: string, fsync: FsyncMode, signer?: RecordSigner): Promise<{ samples: number[]; totalMs: number; line: string }> {
  const anchors = new FileAnchorStore(root, join(root, '..', `anchors-${basename(root)}`));
  const sink = new JsonlTraceSink({ workspaceRoot: root, toolVersion: 'bench', anchors, fsync, signer: signer && (() => signer) });
  // Warm-up outside the timing: opens the file, first lock, JIT of the hot path.
  for (let i = 0; i < WARMUP; i += 1) await sink.recordMutation(event(-1 - i));
  const samples: number[] = [];
  const start = process.hrtime.bigint();
  for (let i = 0; i < APPENDS; i += 1) {
    const t = process.hrtime.bigint();
    await sink.recordMutation(event(i));
    samples.push(elapsedMs(t));
  }
  const totalMs = elapsedMs(start);
  await sink.close();
  const line = readFileSync(traceFilePath(root), 'utf8').split('\n')[WARMUP];
  return { samples, totalMs, line };
}

function merged(runs: { samples: number[]; totalMs: number; line: string }[]): { samples: number[]; totalMs: number; line: string } {
  return { samples: runs.flatMap((r) => r.samples), totalMs: runs.reduce((sum, r) => sum + r.totalMs, 0), line: runs[0].line };
}

/** Sealing the same record with and without a signature, in alternation (ms). */
function sealCost(signer: RecordSigner): { unsigned50: number; unsigned99: number; signed50: number; signed99: number } {
  const unsigned: number[] = [];
  const signed: number[] = [];
  for (let i = 0; i < WARMUP + APPENDS; i += 1) {
    const record = () => buildMutationRecord(event(i), { workspaceRoot: '/ws', toolVersion: 'bench', revision: 'f'.repeat(40) }) as unknown as Record<string, unknown>;
    const [a, b] = [record(), record()];
    let t = process.hrtime.bigint();
    sealRecord(a, GENESIS_HASH, traceChainFields);
    const u = elapsedMs(t);
    t = process.hrtime.bigint();
    sealRecord(b, GENESIS_HASH, traceChainFields, signer.sign);
    const s = elapsedMs(t);
    if (i >= WARMUP) {
      unsigned.push(u);
      signed.push(s);
    }
  }
  return { unsigned50: percentile(unsigned, 50), unsigned99: percentile(unsigned, 99), signed50: percentile(signed, 50), signed99: percentile(signed, 99) };
}

/** Microseconds of one `crypto.verify` of a record-sized message, the floor under a first verify. */
function singleVerifyMicros(key: SigningKey): number {
  const text = Buffer.from('x'.repeat(1100));
  const signature = sign(null, text, createPrivateKey(key.private_key));
  const publicKey = createPublicKey(key.public_key);
  const rounds = 2000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i += 1) verify(null, text, publicKey, signature);
  return (elapsedMs(start) * 1000) / rounds;
}

function row(name: string, samples: number[], totalMs: number, baseline: number): (string | number)[] {
  const p50 = percentile(samples, 50);
  return [name, Math.round((samples.length / totalMs) * 1000), p50, percentile(samples, 99), p50 / baseline];
}

export const traceBench: BenchSuite = {
  name: 'trace',
  async run(): Promise<BenchTable[]> {
    const base = mkdtempSync(join(tmpdir(), 'ig-bench-trace-'));
    try {
      const never = await appendRun(join(base, 'never'), 'never');
      // Signed and unsigned taken in turns, so the machine's load drifts over both alike.
      const signer = recordSignerFor(generateSigningKey('bench'));
      const signedRuns = [];
      const unsignedRuns = [never];
      for (let round = 0; round < 2; round += 1) {
        signedRuns.push(await appendRun(join(base, `signed-${round}`), 'never', signer));
        if (round === 0) unsignedRuns.push(await appendRun(join(base, 'never-again'), 'never'));
      }
      const signed = merged(signedRuns);
      const unsigned = merged(unsignedRuns);
      const seal = sealCost(signer);
      const always = await appendRun(join(base, 'always'), 'always');
      const batch = await appendRun(join(base, 'batch'), 'batch');

      // Baseline: the same line appended with one synchronous call, no lock, chain, anchor or fsync.
      const rawPath = join(base, 'raw.jsonl');
      const raw: number[] = [];
      const rawStart = process.hrtime.bigint();
      for (let i = 0; i < APPENDS; i += 1) {
        const t = process.hrtime.bigint();
        appendFileSync(rawPath, `${never.line}\n`);
        raw.push(elapsedMs(t));
      }
      const rawTotal = elapsedMs(rawStart);
      const baseline = percentile(raw, 50);

      const unsignedRoot = join(base, 'verify');
      const tracePath = join(unsignedRoot, TRACE_FILE);
      await writeSyntheticTrace(tracePath, VERIFY_RECORDS);
      const verifyStart = process.hrtime.bigint();
      const result = await verifyLog(tracePath);
      const verifyMs = elapsedMs(verifyStart);
      const { size } = statSync(tracePath);

      // The same records signed, verified as `governor trace verify` does: first on this machine, then again
      // (signatures found valid before are not checked again). Each case is paired with a verify of the same
      // records unsigned, run the same way just before it, its baseline (the machine's load moves both alike).
      const keys = Array.from({ length: VERIFY_WRITERS }, (_, i) => generateSigningKey(`bench-${i}`));
      const signers = keys.map(recordSignerFor);
      // The worker script `governor trace verify` runs (the bench builds dist/ first), not the TypeScript source.
      lineCheckDefaults.workerFile = join(__dirname, '..', 'dist', 'lineCheckWorker.js');
      const onThisThread = async <T>(run: () => Promise<T>): Promise<T> => {
        const minBytes = lineCheckDefaults.minBytes;
        lineCheckDefaults.minBytes = Number.POSITIVE_INFINITY;
        try {
          return await run();
        } finally {
          lineCheckDefaults.minBytes = minBytes;
        }
      };
      const verifyWorkspace = async (root: string, cacheDir?: string) => {
        const start = process.hrtime.bigint();
        const cpu = process.cpuUsage();
        const [trace] = await verifyWorkspaceLogs(root, undefined, { signers: await loadWorkspaceSigners(root), cacheDir });
        const used = process.cpuUsage(cpu);
        return { ms: elapsedMs(start), cpuMs: (used.user + used.system) / 1000, trace };
      };
      const cases: { name: string; signing: SyntheticSigning }[] = [
        { name: 'one writer', signing: { signers: signers.slice(0, 1) } },
        { name: `${VERIFY_WRITERS} writers in runs of 100`, signing: { signers, runLength: 100 } },
        { name: `every record from another writer (${VERIFY_WRITERS} in turn)`, signing: { signers, runLength: 1 } },
        { name: `every record from another writer, older logs (scheme 1: prev_signed runs of 1)`, signing: { signers, runLength: 1, scheme: 1 } },
      ];
      const signatureRuns = [];
      let signedSize = 0;
      for (const [i, { name, signing }] of cases.entries()) {
        const signedRoot = join(base, `signed-verify-${i}`);
        await writeSyntheticTrace(join(signedRoot, TRACE_FILE), VERIFY_RECORDS, signing);
        for (const key of keys) await publishSigner(signedRoot, key.name, key.public_key);
        signedSize ||= statSync(join(signedRoot, TRACE_FILE)).size;
        const unsigned = await verifyWorkspace(unsignedRoot);
        const cacheDir = join(base, `verified-signatures-${i}`);
        const here = await onThisThread(() => verifyWorkspace(signedRoot, join(base, `verified-signatures-here-${i}`)));
        signatureRuns.push({ name, unsigned, here, cold: await verifyWorkspace(signedRoot, cacheDir), warm: await verifyWorkspace(signedRoot, cacheDir) });
        rmSync(signedRoot, { recursive: true, force: true });
      }
      const unsignedMs = signatureRuns.map((r) => r.unsigned.ms).sort((a, b) => a - b);
      const perCheck = singleVerifyMicros(keys[0]);
      const checkBase = await checkBaseTables();

      return [
        {
          title: `Trace append: ${APPENDS} acknowledged records one at a time (line ${never.line.length} bytes)`,
          columns: ['writer', 'appends/s', 'p50 ms', 'p99 ms', 'p50 vs raw'],
          rows: [
            row('raw fs.appendFileSync (baseline)', raw, rawTotal, baseline),
            row("JsonlTraceSink fsync 'never'", never.samples, never.totalMs, baseline),
            row("JsonlTraceSink fsync 'batch'", batch.samples, batch.totalMs, baseline),
            row("JsonlTraceSink fsync 'always'", always.samples, always.totalMs, baseline),
          ],
          notes: [
            'Each sink append = build record (jsdiff ranges) + cross-process lock + tail check + one O_APPEND write + in-place anchor write.',
            "Target: p99 < 2 ms without fsync ('never'). 'always' is bound by the disk's fdatasync latency.",
          ],
        },
        {
          title: `Trace verify: ${VERIFY_RECORDS} records (${(size / 1e6).toFixed(1)} MB; signed ${(signedSize / 1e6).toFixed(1)} MB)`,
          columns: ['operation', 'records', 'Ed25519 checks', 'ms', 'CPU ms', 'vs unsigned', 'status'],
          rows: [
            ['verifyLog alone (stream, hash, links), unsigned', result.records, 0, verifyMs, '', '', result.status],
            [
              `unsigned, as \`governor trace verify\` runs it (baseline; median of ${unsignedMs.length} runs, ${unsignedMs[0].toFixed(0)}-${unsignedMs.at(-1)?.toFixed(0)} ms)`,
              result.records,
              0,
              unsignedMs[Math.floor(unsignedMs.length / 2)],
              '',
              1,
              signatureRuns[0].unsigned.trace.result.status,
            ],
            ...signatureRuns.flatMap(({ name, unsigned, here, cold, warm }) => {
              const status = (v: typeof cold) => {
                const keys = Object.keys(v.trace.signatures?.signers ?? {}).length;
                return `${v.trace.result.status}, ${v.trace.signatures?.counts.signed} signed by ${keys} key${keys === 1 ? '' : 's'}`;
              };
              return [
                [`signed, ${name}: first verify, every line checked on the calling thread`, here.trace.result.records, here.trace.signatures?.checked ?? 0, here.ms, here.cpuMs, here.ms / unsigned.ms, status(here)],
                [`signed, ${name}: first verify on this machine`, cold.trace.result.records, cold.trace.signatures?.checked ?? 0, cold.ms, cold.cpuMs, cold.ms / unsigned.ms, status(cold)],
                [`signed, ${name}: verified again`, warm.trace.result.records, warm.trace.signatures?.checked ?? 0, warm.ms, warm.cpuMs, warm.ms / unsigned.ms, status(warm)],
              ];
            }),
          ],
          notes: [
            'Target: < 2000 ms, for signed records too, whoever wrote them. Ratios: against the unsigned verify run just before each case.',
            'CPU ms: the process\'s user + system time during the verify (the thread pool\'s Ed25519 checks and the line check workers included): what a loaded machine moves least.',
            `A log of 8 MB or more has its lines parsed, scanned and hashed on worker threads (${Math.min(4, availableParallelism())} here, one per core up to 4), each reading its own share of the file; the chain, the anchor and the signature audit stay on the calling thread. "every line checked on the calling thread" is the same first verify without them.`,
            `One Ed25519 check (node:crypto, this machine) takes ${perCheck.toFixed(0)} µs: ${((perCheck * VERIFY_RECORDS) / 1e6).toFixed(1)} s for ${VERIFY_RECORDS} on one core.`,
            'Scheme 2 (what writers write): each record names the last record its key signed (signing.prev, under its own signature), so a key\'s records form a chain however they interleave, and a first verify checks the newest record of each chain. Scheme 1 (older logs, still verified): a record vouches only for the line above, when its own writer wrote it, so a first verify checks one signature per run. Checks run on the thread pool.',
            'Signatures found valid are remembered beside the anchors (sha256 of hash, key id and signature), so a verify checks only new records.',
          ],
        },
        {
          title: `Signing: what Ed25519 adds to an append (fsync 'never', ${signed.samples.length} appends each, in turns)`,
          columns: ['writer', 'p50 ms', 'p99 ms', 'p50 vs unsigned'],
          rows: [
            ['append, unsigned (the writer notes it has no key)', percentile(unsigned.samples, 50), percentile(unsigned.samples, 99), 1],
            ['append, signed', percentile(signed.samples, 50), percentile(signed.samples, 99), percentile(signed.samples, 50) / percentile(unsigned.samples, 50)],
            ['seal a record (chain hash, canonical line), unsigned', seal.unsigned50, seal.unsigned99, 1],
            ['seal a record, signed (+ Ed25519 over the line, line again)', seal.signed50, seal.signed99, seal.signed50 / seal.unsigned50],
            ['added by signing (seal, signed − unsigned)', seal.signed50 - seal.unsigned50, seal.signed99 - seal.unsigned99, ''],
          ],
          notes: [
            'Target: signing adds at most 0.2 ms at p50.',
            'Sealing is the only step of an append that signing changes, so its difference, measured in alternation, is what signing adds; the whole appends above move with the machine\'s load far more than that.',
            `Signed line ${signed.line.length} bytes, unsigned ${unsigned.line.length}.`,
          ],
        },
        ...checkBase,
      ];
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  },
};
