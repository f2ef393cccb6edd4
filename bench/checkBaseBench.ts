import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, openSync, readSync, closeSync, rmSync, writeFileSync, appendFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordSigner } from '../src/core/signing/recordSignature';
import { generateSigningKey, recordSignerFor } from '../src/core/signing/signingKey';
import { publishSigner } from '../src/core/signing/workspaceSigners';
import { ensureOrchestrationGitFiles } from '../src/core/trace/orchestrationGitFiles';
import { GENESIS_HASH, recordLink, sealSignedRecord, traceChainFields } from '../src/core/trace/traceChain';
import { TRACE_FILE } from '../src/core/trace/traceFiles';
import { buildMutationRecord } from '../src/core/trace/traceRecord';
import { elapsedMs, type BenchSuite, type BenchTable } from './table';

/** The pull request every history gets: the same 1,000 records, appended after the base's last. */
const PR_RECORDS = 1000;
/** 1M records is about 1.5 GB of log: generating and committing it takes minutes, so it runs only when asked. */
const HISTORIES = process.env.IG_BENCH_HISTORY_1M ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
const MERGE_HISTORY = 100_000;
const RUNS = 3;
const INTENTS = ['INT-001', 'INT-002', 'INT-003'];
const CLI = join(__dirname, '..', 'dist', 'cli.js');

/** Signed records as writers write them (scheme 2, three writers in runs of 100), chained from `prev`. */
async function writeRecords(path: string, from: number, count: number, prev: string, signers: RecordSigner[], salt = ''): Promise<{ last: string; offsets: number[] }> {
  const out = createWriteStream(path, { flags: 'a' });
  const links = new Map<string, string>();
  const offsets: number[] = [];
  let offset = 0;
  let buffer: string[] = [];
  for (let i = from; i < from + count; i += 1) {
    const record = buildMutationRecord(
      {
        timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
        invocation_id: `inv-${salt}${i}`,
        session_id: `session-${i % 10}`,
        agent: { name: 'claude-code', model_id: 'claude-sonnet-4-5' },
        intent_id: INTENTS[i % INTENTS.length],
        tool: 'edit_file',
        mutation_class: 'edit',
        files: [{ path: `src/m${i % 50}.ts`, before: 'a\nb\n', after: `a\nb${salt}${i}\nc\n` }],
        decision: 'allow',
      },
      { workspaceRoot: '/ws', toolVersion: '0.1.0', revision: 'f'.repeat(40), newId: () => `00000000-0000-4000-8${salt ? '1' : '0'}00-${i.toString(16).padStart(12, '0')}` },
    ) as unknown as Record<string, unknown> & { metadata: { hash: string; signature: { sig: string } } };
    const signer = signers[Math.floor(i / 100) % signers.length];
    const line = sealSignedRecord(record, prev, traceChainFields, signer.keyId, signer.sign, links.get(signer.keyId));
    links.set(signer.keyId, recordLink(record.metadata.hash, signer.keyId, record.metadata.signature.sig));
    prev = record.metadata.hash;
    offsets.push(offset);
    offset += Buffer.byteLength(line) + 1;
    buffer.push(line);
    if (buffer.length === 5000) {
      if (!out.write(`${buffer.join('\n')}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      buffer = [];
    }
  }
  offsets.push(offset);
  if (buffer.length) out.write(`${buffer.join('\n')}\n`);
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { last: prev, offsets };
}

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** Bytes [from, to) of `source` appended to `target`, in 64 MB pieces. */
function copyRange(source: string, target: string, from: number, to: number): void {
  const fd = openSync(source, 'r');
  try {
    for (let at = from; at < to; ) {
      const piece = Buffer.alloc(Math.min(64 << 20, to - at));
      const read = readSync(fd, piece, 0, piece.length, at);
      appendFileSync(target, piece.subarray(0, read));
      at += read;
    }
  } finally {
    closeSync(fd);
  }
}

/** A repository whose main holds `records` of the stream and whose branch `pr` adds the next PR_RECORDS. */
async function historyRepo(dir: string, stream: string, offsets: number[], records: number, keys: { name: string; public_key: string }[]): Promise<void> {
  mkdirSync(join(dir, '.orchestration'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'bench@example.com');
  git(dir, 'config', 'user.name', 'bench');
  writeFileSync(join(dir, '.orchestration/active_intents.yaml'), `active_intents:\n${INTENTS.map((id) => `  - id: ${id}\n    name: ${id}\n    status: IN_PROGRESS\n    owned_scope: ['src/**']\n`).join('')}`);
  await ensureOrchestrationGitFiles(dir);
  for (const key of keys) await publishSigner(dir, key.name, key.public_key);
  copyRange(stream, join(dir, TRACE_FILE), 0, offsets[records]);
  git(dir, 'add', '.orchestration');
  git(dir, 'commit', '-q', '-m', `history of ${records}`);
  git(dir, 'checkout', '-q', '-b', 'pr');
  copyRange(stream, join(dir, TRACE_FILE), offsets[records], offsets[records + PR_RECORDS]);
  git(dir, 'commit', '-q', '-am', `${PR_RECORDS} records`);
}

/** `governor check --base main --require-signatures` as CI runs it: a fresh process, no anchors, no remembered signatures. */
function timedCheck(dir: string, scratch: string): { ms: number; out: string; ok: boolean } {
  const home = mkdtempSync(join(scratch, 'home-'));
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [CLI, 'check', '--workspace', dir, '--base', 'main', '--require-signatures'], { encoding: 'utf8', env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), CI: '' } });
  const ms = elapsedMs(start);
  rmSync(home, { recursive: true, force: true });
  return { ms, out: run.stdout + run.stderr, ok: run.status === 0 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timed(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return elapsedMs(start);
}

/** Where an O(history) check spends its time at MERGE_HISTORY records, part by part. */
function parts(dir: string, records: number): (string | number)[][] {
  const cat = timed(() => spawnSync('git', ['cat-file', 'blob', `main:./${TRACE_FILE}`], { cwd: dir, maxBuffer: 2 ** 32 }));
  const bytes = spawnSync('git', ['cat-file', 'blob', `main:./${TRACE_FILE}`], { cwd: dir, maxBuffer: 2 ** 32 }).stdout as Buffer;
  const split = timed(() => void bytes.toString('utf8').split('\n'));
  const lines = bytes.toString('utf8').split('\n').filter(Boolean);
  const parse = timed(() => {
    for (const line of lines) JSON.parse(line);
  });
  const hash = timed(() => {
    createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  });
  return [
    [`  git cat-file blob of the base's log (${records} records)`, records, '', cat, ''],
    ['  the blob as text, split into lines', records, '', split, ''],
    ['  JSON.parse of every base line', records, '', parse, ''],
    ["  sha1 of the head's first bytes as a git blob (what proves the prefix now)", records, '', hash, ''],
  ];
}

export async function checkBaseTables(): Promise<BenchTable[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'ig-bench-base-'));
  try {
    const keys = ['alice', 'bob', 'carol'].map((name) => generateSigningKey(name));
    const signers = keys.map(recordSignerFor);
    const published = keys.map((k) => ({ name: k.name, public_key: k.public_key }));
    const stream = join(scratch, 'stream.jsonl');
    const most = HISTORIES.at(-1) as number;
    const generateStart = process.hrtime.bigint();
    const { offsets } = await writeRecords(stream, 0, most + PR_RECORDS, GENESIS_HASH, signers);
    const generateMs = elapsedMs(generateStart);

    const rows: (string | number)[][] = [];
    let first = 0;
    let outputs = '';
    for (const records of HISTORIES) {
      const dir = join(scratch, `h${records}`);
      const buildStart = process.hrtime.bigint();
      await historyRepo(dir, stream, offsets, records, published);
      const buildMs = elapsedMs(buildStart);
      const runs = Array.from({ length: RUNS }, () => timedCheck(dir, scratch));
      const ms = median(runs.map((r) => r.ms));
      first ||= ms;
      const verdict = runs.every((r) => r.ok) ? 'passed' : 'FAILED';
      if (!runs[0].ok) outputs += runs[0].out;
      rows.push([`check --base main --require-signatures, ${records} records + PR of ${PR_RECORDS} (repo built in ${(buildMs / 1000).toFixed(0)} s)`, records, PR_RECORDS, ms, ms / first, verdict]);
      if (records === MERGE_HISTORY) {
        rows.push(...parts(dir, records).map((r) => [...r.slice(0, 4), '', '']));
        // A second branch from the same base adds 1,000 other records; merging it into a copy of pr is the team's merge.
        const { last } = await writeRecords(join(scratch, 'other.jsonl'), records, PR_RECORDS, lastHashAt(stream, offsets, records), signers, 'b');
        git(dir, 'checkout', '-q', '-b', 'other', 'main');
        copyRange(join(scratch, 'other.jsonl'), join(dir, TRACE_FILE), 0, statSync(join(scratch, 'other.jsonl')).size);
        git(dir, 'commit', '-q', '-am', `other ${PR_RECORDS} records (head ${last.slice(0, 19)})`);
        git(dir, 'checkout', '-q', 'pr');
        const mergeMs = timed(() => git(dir, 'merge', '-q', '--no-edit', 'other'));
        const merged = Array.from({ length: RUNS }, () => timedCheck(dir, scratch));
        const mergedMs = median(merged.map((r) => r.ms));
        if (!merged[0].ok) outputs += merged[0].out;
        const conflicts = git(dir, 'diff', '--name-only', '--diff-filter=U').trim();
        rows.push([`git merge of two branches adding ${PR_RECORDS} each (union), ${records} records`, records, 2 * PR_RECORDS, mergeMs, '', conflicts ? `conflict: ${conflicts}` : 'no conflict']);
        rows.push([`check --base main after that merge (${2 * PR_RECORDS} added, two chains)`, records, 2 * PR_RECORDS, mergedMs, mergedMs / first, merged.every((r) => r.ok) ? 'passed' : 'FAILED']);
      }
      rmSync(dir, { recursive: true, force: true });
    }
    const perRecord = (offsets[most + PR_RECORDS] - offsets[most]) / PR_RECORDS;
    return [
      {
        title: `check --base: a pull request of ${PR_RECORDS} signed records over histories of ${HISTORIES.join(', ')} records`,
        columns: ['operation', 'history records', 'added records', 'ms', 'vs 10k', 'result'],
        rows,
        notes: [
          `ms: median of ${RUNS} runs of the CLI (node dist/cli.js) in a fresh process with a fresh HOME (no anchors, no remembered signatures), as CI runs it; it includes starting node.`,
          'Target: ≤ 1000 ms at 100,000 records, and not growing with the history. Indented rows are parts of the cost measured alone at that history.',
          `Bytes per one-file record (signed, scheme 2, as the bench's records): ${perRecord.toFixed(0)} bytes; ${HISTORIES.at(-1)} records are ${(offsets[most] / 1e6).toFixed(0)} MB of log.`,
          `Records generated with the product's own record builder and signing (${((most + PR_RECORDS) / (generateMs / 1000)).toFixed(0)} records/s).`,
          process.env.IG_BENCH_HISTORY_1M ? '1M records: included (IG_BENCH_HISTORY_1M set).' : '1M records: set IG_BENCH_HISTORY_1M=1 to include them (about 1.5 GB of log; generating and committing it takes minutes on this machine).',
          ...(outputs ? [`A check failed:\n${outputs}`] : []),
        ],
      },
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The hash of record `records` (1-based) of the stream: where the second branch starts from. */
function lastHashAt(stream: string, offsets: number[], records: number): string {
  const fd = openSync(stream, 'r');
  try {
    const bytes = Buffer.alloc(offsets[records] - offsets[records - 1] - 1);
    readSync(fd, bytes, 0, bytes.length, offsets[records - 1]);
    return (JSON.parse(bytes.toString('utf8')) as { metadata: { hash: string } }).metadata.hash;
  } finally {
    closeSync(fd);
  }
}

/** `npm run bench -- check-base` runs these alone; `trace` includes them. */
export const checkBaseBench: BenchSuite = { name: 'check-base', run: checkBaseTables };
