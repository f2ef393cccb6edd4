import { VerifiedSignatureCache } from '../signing/verifiedSignatureCache';
import type { SignerSet } from '../signing/workspaceSigners';
import type { AnchorHead, AnchorStore } from './anchorStore';
import { gitExplainsAnchor } from './anchorGitExplanation';
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
  /** This machine's anchor was missing or moved, and git accounts for it (gitExplainsAnchor): verified without it. */
  anchorMovedByGit?: boolean;
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
export async function verifyWorkspaceLogs(
  root: string,
  anchors: AnchorStore | undefined,
  signatures?: SignatureCheckOptions,
  /** Per log, discontinuity notes accepted besides this machine's (those a base branch already held: `check --base`). */
  acceptedNotes?: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<LogVerification[]> {
  const branch = await currentBranch(root);
  return Promise.all(
    WORKSPACE_LOGS.map(async ({ log, fields }) => {
      const anchor = anchors ? await anchors.read(log, branch) : undefined;
      const local = anchors ? await anchors.accepted(log) : undefined;
      const extra = acceptedNotes?.get(log);
      const accepted = extra?.size ? new Set([...(local ?? []), ...extra]) : local;
      const first = await verifyOnce(root, log, fields, anchor, accepted, signatures);
      const { result } = first;
      const verification = !anchor || (result.anchor !== 'missing' && result.anchor !== 'moved') || !(await gitExplainsAnchor(root, log, anchor))
        ? first
        : // A merge, a pull or a revert moved it: the local early warning has nothing to say, the rest is judged as usual.
          { ...(await verifyOnce(root, log, fields, undefined, accepted, signatures)), anchorMovedByGit: true };
      for (const note of verification.result.discontinuities) if (note.acceptedAt === undefined && extra?.has(note.hash) && !local?.has(note.hash)) note.heldByBase = true;
      return verification;
    }),
  );
}

async function verifyOnce(root: string, log: string, fields: ChainFields, anchor: AnchorHead | undefined, accepted: Set<string> | undefined, signatures?: SignatureCheckOptions): Promise<LogVerification> {
  const path = join(root, log);
  if (!signatures) return { log, result: await verifyLog(path, { fields, anchor, accepted }) };
  const cache = signatures.cacheDir ? await VerifiedSignatureCache.open(signatures.cacheDir, root, log) : undefined;
  const audit = new SignatureAudit(signatures.signers, cache, (lines) => readRecordLines(path, fields, lines), log);
  const result = await verifyLog(path, { fields, anchor, accepted, onRecord: (line) => audit.add(line) });
  return { log, result, signatures: await audit.finish() };
}

/** One line a human reads: `verified (12 records, 1 chain, anchor matched)` or `TAMPERED at line 7: …`. */
export function describeVerification(result: VerifyResult, anchorMovedByGit = false): string {
  if (result.status === 'tampered') return `TAMPERED at line ${result.firstBadLine}: ${result.reason}`;
  if (result.status === 'empty') return result.tornTail ? 'empty (one torn line from a crash; the next write quarantines it)' : 'empty';
  const chains = result.status === 'merged' ? `${result.chains} chains from line ${result.mergeFromLine}` : `${result.chains} chain`;
  const anchor = anchorMovedByGit ? "this machine's anchor was moved by git (a merge, pull, rebase or revert); the log is git's to judge (`governor check --base`)" : result.anchor === 'unchecked' ? 'no anchor on this machine: truncation and rewrites cannot be detected' : `anchor ${result.anchor}`;
  const shared = result.discontinuities.filter((d) => d.acceptedAt !== undefined);
  const base = result.discontinuities.filter((d) => d.heldByBase).length;
  const local = result.discontinuities.filter((d) => d.accepted && d.acceptedAt === undefined && !d.heldByBase).length;
  const plural = (n: number) => `discontinuit${n === 1 ? 'y' : 'ies'}`;
  const notes =
    (shared.length ? `, ${shared.length} ${plural(shared.length)} accepted by the acceptance record${new Set(shared.map((d) => d.acceptedAt)).size === 1 ? '' : 's'} at line ${[...new Set(shared.map((d) => d.acceptedAt))].join(', ')}` : '') +
    (base ? `, ${base} ${plural(base)} the base already held (the base's to accept)` : '') +
    (local ? `, ${local} ${plural(local)} accepted on this machine` : '');
  const torn = result.tornTail ? '; a torn last line from a crash will be quarantined by the next write' : '';
  return `${result.status} (${result.records} record${result.records === 1 ? '' : 's'}, ${chains}, ${anchor}${notes}${torn})`;
}
