import { VerifiedSignatureCache } from '../signing/verifiedSignatureCache';
import type { SignerSet } from '../signing/workspaceSigners';
import type { AnchorStore } from './anchorStore';
import { currentBranch } from './gitHead';
import { SignatureAudit, type SignatureReport } from './signatureAudit';
import { governanceChainFields, traceChainFields, type ChainFields } from './traceChain';
import { GOVERNANCE_LOG_FILE, TRACE_FILE } from './traceFiles';
import { readRecordLines, verifyLog, type VerifyResult } from './traceVerify';
import { join } from 'node:path';

export interface LogVerification {
  /** Workspace-relative path of the log. */
  log: string;
  result: VerifyResult;
  /** Each record's signature verdict, when signatures were asked for. */
  signatures?: SignatureReport;
}

export interface SignatureCheckOptions {
  signers: SignerSet;
  /** Where signatures found valid before are remembered (VerifiedSignatureCache); none: every one is checked. */
  cacheDir?: string;
}

/** The two chained logs of a workspace, by workspace-relative path (the names anchors are keyed by). */
export const WORKSPACE_LOGS: readonly { log: string; fields: ChainFields }[] = [
  { log: TRACE_FILE, fields: traceChainFields },
  { log: GOVERNANCE_LOG_FILE, fields: governanceChainFields },
];

/**
 * Verifies the trace and the governance log of a workspace against the anchors for the current branch and,
 * with `signatures`, judges every record's signature in the same pass.
 */
export async function verifyWorkspaceLogs(root: string, anchors: AnchorStore | undefined, signatures?: SignatureCheckOptions): Promise<LogVerification[]> {
  const branch = await currentBranch(root);
  return Promise.all(
    WORKSPACE_LOGS.map(async ({ log, fields }) => {
      const anchor = anchors ? await anchors.read(log, branch) : undefined;
      const accepted = anchors ? await anchors.accepted(log) : undefined;
      if (!signatures) return { log, result: await verifyLog(join(root, log), { fields, anchor, accepted }) };
      const cache = signatures.cacheDir ? await VerifiedSignatureCache.open(signatures.cacheDir, root, log) : undefined;
      const path = join(root, log);
      const audit = new SignatureAudit(signatures.signers, cache, (lines) => readRecordLines(path, fields, lines));
      const result = await verifyLog(path, { fields, anchor, accepted, onRecord: (line) => audit.add(line) });
      return { log, result, signatures: await audit.finish() };
    }),
  );
}

/** One line a human reads: `verified (12 records, 1 chain, anchor matched)` or `TAMPERED at line 7: …`. */
export function describeVerification(result: VerifyResult): string {
  if (result.status === 'tampered') return `TAMPERED at line ${result.firstBadLine}: ${result.reason}`;
  if (result.status === 'empty') return result.tornTail ? 'empty (one torn line from a crash; the next write quarantines it)' : 'empty';
  const chains = result.status === 'merged' ? `${result.chains} chains from line ${result.mergeFromLine}` : `${result.chains} chain`;
  const anchor = result.anchor === 'unchecked' ? 'no anchor on this machine: truncation and rewrites cannot be detected' : `anchor ${result.anchor}`;
  const accepted = result.discontinuities.filter((d) => d.accepted).length;
  const notes = accepted ? `, ${accepted} discontinuit${accepted === 1 ? 'y' : 'ies'} accepted on this machine` : '';
  const torn = result.tornTail ? '; a torn last line from a crash will be quarantined by the next write' : '';
  return `${result.status} (${result.records} record${result.records === 1 ? '' : 's'}, ${chains}, ${anchor}${notes}${torn})`;
}
