import { gitText } from '../core/git/gitRun';
import { signatureCacheDir, VerifiedSignatureCache } from '../core/signing/verifiedSignatureCache';
import { loadWorkspaceSigners, SIGNERS_DIR, type SignerSet } from '../core/signing/workspaceSigners';
import { verifyAddedRecords } from '../core/trace/addedRecords';
import { defaultAnchorDir } from '../core/trace/anchorStore';
import type { BaseComparison } from '../core/trace/baseRecords';
import { currentBranch } from '../core/trace/gitHead';
import type { TraceLine } from '../core/trace/traceReader';
import type { AgentTraceRecord } from '../core/trace/traceRecord';
import type { VerifyResult } from '../core/trace/traceVerify';
import { createAnchorStore } from '../core/trace/traceStack';
import { WORKSPACE_LOGS, type LogVerification } from '../core/trace/workspaceVerify';
import { nameKeyPeople } from './keyPeople';

/** What `check --base` verified when only the branch's records needed it. */
export interface BranchVerification {
  logs: LogVerification[];
  signers?: SignerSet;
  /** Per log: the records the branch added (verified) and the base's (git's, byte for byte, not verified again). */
  counts: Map<string, { added: number; base: number }>;
}

/**
 * `check --base` when git proved each log to be the base's log followed by the branch's lines: the base passed its
 * own gate, so only the added records are verified (chains, signatures; the scope audit takes addedTraceLines).
 * A string says why the whole log must be verified instead (fail closed): a log the branch did not only append to,
 * a signer the branch removed or revoked (it changes the base's verdicts), or records that name the base's middle.
 */
export async function verifyBranchAdded(root: string, env: NodeJS.ProcessEnv, signatures: boolean, comparisons: readonly BaseComparison[], base: string): Promise<BranchVerification | string> {
  const appended = new Map(comparisons.map((c) => [c.log, c]));
  for (const { log } of WORKSPACE_LOGS) {
    const c = appended.get(log);
    if (!c || c.dropped || !c.appended) return `${log} is not the base's log with records appended`;
  }
  const changed = await signersChangedBeyondAdding(root, base);
  if (changed) return changed;
  const anchorDir = defaultAnchorDir(env);
  const anchors = createAnchorStore({ workspaceRoot: root, anchorDir });
  const branch = await currentBranch(root);
  const signers = signatures ? await loadWorkspaceSigners(root) : undefined;
  const logs: LogVerification[] = [];
  const counts = new Map<string, { added: number; base: number }>();
  for (const { log, fields } of WORKSPACE_LOGS) {
    const comparison = appended.get(log) as BaseComparison & { appended: NonNullable<BaseComparison['appended']> };
    const cache = signers ? await VerifiedSignatureCache.open(signatureCacheDir(anchorDir), root, log) : undefined;
    const verified = await verifyAddedRecords({
      root,
      log,
      fields,
      appended: comparison.appended,
      anchor: await anchors.read(log, branch),
      accepted: await anchors.accepted(log),
      ...(signers ? { signatures: { signers, cache } } : {}),
    });
    if ('wholeLog' in verified) return `${log}: ${verified.wholeLog}`;
    logs.push(verified);
    counts.set(log, { added: comparison.appended.tail.length, base: comparison.appended.baseRecords });
  }
  if (signers) await nameKeyPeople(logs, signers);
  return { logs, ...(signers ? { signers } : {}), counts };
}

/** One log's line: `verified the 1000 records the branch added (…)`, or where the first bad added record is. */
export function describeAdded(result: VerifyResult, count: { added: number; base: number }): string {
  if (result.status === 'tampered') return `TAMPERED at line ${result.firstBadLine}: ${result.reason}`;
  const chains = result.status === 'merged' ? `${result.chains} chains from line ${result.mergeFromLine}` : `${result.chains} chain${result.chains === 1 ? '' : 's'}`;
  const anchor = result.anchor === 'matched' ? ', anchor matched' : '';
  // Worded as describeVerification words them: a team reads one kind of line whichever way check verified.
  const plural = (n: number) => `discontinuit${n === 1 ? 'y' : 'ies'}`;
  const shared = result.discontinuities.filter((d) => d.acceptedAt !== undefined);
  const at = [...new Set(shared.map((d) => d.acceptedAt))];
  const local = result.discontinuities.filter((d) => d.accepted && d.acceptedAt === undefined).length;
  const notes = (shared.length ? `, ${shared.length} ${plural(shared.length)} accepted by the acceptance record${at.length === 1 ? '' : 's'} at line ${at.join(', ')}` : '') + (local ? `, ${local} ${plural(local)} accepted on this machine` : '');
  const torn = result.tornTail ? '; a torn last line from a crash will be quarantined by the next write' : '';
  return `verified ${count.added} record${count.added === 1 ? '' : 's'} the branch added (${chains}${anchor}${notes}); the base's ${count.base} are the base's, byte for byte, and not verified again${torn}`;
}

/** The trace's records the branch added, as the scope audit reads them. */
export function addedTraceLines(comparison: BaseComparison): TraceLine[] {
  const { appended } = comparison;
  if (!appended) return [];
  return appended.tail.map(({ text }, i) => {
    const line = appended.baseRecords + i + 1;
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? { line, record: value as AgentTraceRecord } : { line, error: 'not a JSON object' };
    } catch {
      return { line, error: 'not valid JSON' };
    }
  });
}

/**
 * A change to the signers since the base other than added `.pub` files (a key removed, replaced or revoked, committed
 * or not): the base's records may now be judged otherwise, so the whole log is verified. Undefined when there is none.
 */
async function signersChangedBeyondAdding(root: string, base: string): Promise<string | undefined> {
  const diff = await gitText(root, ['diff', '--name-status', '--no-renames', '--relative', base, '--', `${SIGNERS_DIR}/`]);
  const untracked = await gitText(root, ['ls-files', '--others', '--exclude-standard', '--', `${SIGNERS_DIR}/`]);
  if (diff === undefined || untracked === undefined) return 'git cannot say how the signers changed since the base';
  const top = (file: string) => new RegExp(`^${SIGNERS_DIR.replace(/[.]/g, '\\.')}/[^/]+\\.pub$`).test(file);
  const other = [
    ...diff.split('\n').filter(Boolean).map((row) => row.split('\t')).filter(([status, file]) => status !== 'A' || !top(file ?? '')).map(([, file]) => file),
    ...untracked.split('\n').filter(Boolean).filter((file) => !top(file)),
  ];
  return other.length ? `the signers changed since the base (${other[0]}), which can change the base's records' verdicts` : undefined;
}
