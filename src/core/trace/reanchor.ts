import { join } from 'node:path';
import { errnoOf } from '../ioError';
import type { AnchorHead, AnchorStore } from './anchorStore';
import { acquireLock, type LockOptions } from '../io/crossProcessLock';
import { currentBranch } from './gitHead';
import type { ChainFields } from './traceChain';
import { verifyLog } from './traceVerify';
import { WORKSPACE_LOGS } from './workspaceVerify';

export interface Reanchored {
  /** Workspace-relative path of the log. */
  log: string;
  /** What the human accepts by this, one sentence each; empty when the anchor only moved forward. */
  accepted: string[];
  /** The discontinuity notes accepted by this run (their hashes), for the acceptance record every clone honours. */
  acceptedNotes?: string[];
  /** The anchor now; absent when the log is empty or the reanchor was refused. */
  head?: AnchorHead;
  /** Why the anchor was left alone: the chain itself is broken, which no human acceptance can fix. */
  refused?: string;
}

/**
 * `governor trace reanchor`: for a human who checked what verify reported. A rebase or merge that puts
 * another branch's records before this machine's anchored ones looks exactly like an insertion, and a
 * writer that ran since has left a `discontinuity` note; both are accepted here, on this machine only:
 * the anchor moves to the current head and the notes are remembered as accepted. Refused when anything
 * else is wrong (an edited, deleted or reordered record, a merge shape git cannot produce).
 */
export async function reanchorWorkspaceLogs(root: string, anchors: AnchorStore, lock?: LockOptions): Promise<Reanchored[]> {
  const branch = await currentBranch(root);
  const results: Reanchored[] = [];
  for (const { log, fields } of WORKSPACE_LOGS) results.push(await reanchorLog(join(root, log), log, fields, branch, anchors, lock));
  return results;
}

async function reanchorLog(path: string, log: string, fields: ChainFields, branch: string, anchors: AnchorStore, lockOptions?: LockOptions): Promise<Reanchored> {
  let lock;
  try {
    // The writers' own lock: no append (and no anchor move) between our check and our write.
    lock = await acquireLock(`${path}.lock`, lockOptions);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { log, accepted: [] }; // no .orchestration: nothing was ever written
    throw error;
  }
  try {
    const anchor = await anchors.read(log, branch);
    const result = await verifyLog(path, { fields, anchor, accepted: await anchors.accepted(log) });
    if (result.chainProblem) {
      return { log, accepted: [], refused: `TAMPERED at line ${result.chainProblem.line}: ${result.chainProblem.reason}` };
    }
    if (result.records === 0) return { log, accepted: [] };
    const accepted: string[] = [];
    if (!anchor) accepted.push('this machine had no anchor for it: the log as it is now becomes the reference');
    if (result.anchorProblem) accepted.push(result.anchorProblem);
    const notes = result.discontinuities.filter((d) => !d.accepted);
    for (const note of notes) accepted.push(`line ${note.line}, a writer's discontinuity note: ${note.reason}`);
    if (notes.length) await anchors.accept(log, notes.map((n) => n.hash));
    const head: AnchorHead = { hash: result.lastHash, line: result.records, size: result.size, updated: new Date().toISOString() };
    await anchors.write(log, branch, head);
    // Every note no acceptance record covers yet, those accepted here before included: the other clones need the record.
    const unshared = result.discontinuities.filter((d) => d.acceptedAt === undefined).map((d) => d.hash);
    return { log, accepted, head, ...(unshared.length ? { acceptedNotes: unshared } : {}) };
  } finally {
    await lock.release();
  }
}
