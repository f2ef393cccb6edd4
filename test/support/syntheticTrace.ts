import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RecordSigner } from '../../src/core/signing/recordSignature';
import { GENESIS_HASH, recordLink, sealRecord, sealSignedRecord, traceChainFields } from '../../src/core/trace/traceChain';
import { buildMutationRecord } from '../../src/core/trace/traceRecord';

export const SYNTHETIC_INTENTS = ['INT-001', 'INT-002', 'INT-003', 'INT-004'];
export const SYNTHETIC_AGENTS = ['claude-code', 'cursor', 'cline'];
export const SYNTHETIC_MODELS = ['claude-sonnet-4-5', 'gpt-5', 'gemini-2.5-pro', 'claude-opus-4'];

/** Who signs a synthetic trace, and in which format. */
export interface SyntheticSigning {
  /** Writers in turn: record i is signed by `signers[floor(i / runLength) % signers.length]`. */
  signers: RecordSigner[];
  /** Records in a row by one writer (default: all of them). */
  runLength?: number;
  /**
   * 2 (default): what writers write now, each record naming the previous record of its key (`signing.prev`);
   * 1: the older format, each record but a run's first vouching for the line above (`prev_signed`).
   */
  scheme?: 1 | 2;
}

/**
 * Writes a valid chained trace of `count` records without going through the writer (for scale tests and
 * the verify benchmark). Record i: intent i%4, agent i%3, model i%4, file `src/m<i%50>.ts`, one second apart
 * from 2026-01-01T00:00:00Z; signed as `signing` says when given. Returns the last hash.
 */
export async function writeSyntheticTrace(path: string, count: number, signing?: SyntheticSigning): Promise<string> {
  const runLength = signing?.runLength ?? Infinity;
  const ownLinks = new Map<string, string>();
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  let prev = GENESIS_HASH;
  let buffer: string[] = [];
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i += 1) {
    const record = buildMutationRecord(
      {
        timestamp: new Date(start + i * 1000).toISOString(),
        invocation_id: `inv-${i}`,
        session_id: `session-${i % 10}`,
        agent: { name: SYNTHETIC_AGENTS[i % 3], model_id: SYNTHETIC_MODELS[i % 4] },
        intent_id: SYNTHETIC_INTENTS[i % 4],
        tool: 'edit_file',
        mutation_class: 'edit',
        files: [{ path: `src/m${i % 50}.ts`, before: 'a\nb\n', after: `a\nb${i}\nc\n` }],
        decision: i % 5 === 0 ? 'approved' : 'allow',
        approver: i % 5 === 0 ? 'reviewer' : undefined,
      },
      { workspaceRoot: '/ws', toolVersion: '0.1.0', revision: 'f'.repeat(40), newId: () => uuidFor(i) },
    );
    const sealed = record as unknown as Record<string, unknown>;
    const signer = signing?.signers[Math.floor(i / runLength) % signing.signers.length];
    if (!signer) buffer.push(sealRecord(sealed, prev, traceChainFields));
    else if (signing?.scheme === 1) buffer.push(sealRecord(sealed, prev, traceChainFields, signer.sign, i % runLength !== 0));
    else {
      buffer.push(sealSignedRecord(sealed, prev, traceChainFields, signer.keyId, signer.sign, ownLinks.get(signer.keyId)));
      const { sig } = record.metadata.signature as { sig: string };
      ownLinks.set(signer.keyId, recordLink(record.metadata.hash as string, signer.keyId, sig));
    }
    prev = record.metadata.hash as string;
    if (buffer.length === 5000) {
      if (!out.write(`${buffer.join('\n')}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      buffer = [];
    }
  }
  if (buffer.length) out.write(`${buffer.join('\n')}\n`);
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return prev;
}

function uuidFor(i: number): string {
  const hex = i.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}
