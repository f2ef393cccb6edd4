import { releaseCommand } from './confinedShell';
import { currentProcess, localProcessGone } from '../io/processIdentity';
import { confinedCommandRunning } from '../sandbox/confinedLiveness';
import { commandChanges } from './confinedChanges';
import { recentRecords } from './recentRecords';
import type { FileState, HeldEntry, PendingNativeChange, PendingNativeChanges, PendingNativeFile } from './pendingNativeChanges';

/** A changed file written this recently may still get its post event: it is left for it. */
export const POST_GRACE_MS = 5_000;
/**
 * A change whose post came before the file held it is recorded once the file has been this quiet: no post is
 * left to wait for, only the save that may still be writing it.
 */
export const POSTED_QUIET_MS = 1_000;
/**
 * A pending change whose files are unchanged may still be waiting on a person (the agent's own permission
 * prompt): it is kept this long, unless its session ends or `governor check` runs, then dropped.
 */
export const UNCHANGED_KEEP_MS = 60 * 60_000;

export const RECONCILED = 'post event never came';
/**
 * The governor that allowed the change, or the process that had taken it to record, stopped first. Its post may
 * well have come (a resident answers a file change's post before recording it), so the label does not say it never did.
 */
export const OWNER_STOPPED = 'the governor that allowed it stopped before recording it';
export const RECORDER_STOPPED = 'the process recording it stopped before it was recorded';
/** Its post came before the file held the change (the agent saved it afterwards): recorded once it did. */
export const POSTED_EARLY = 'its post event came before the file held the change';

export interface ReconcileOptions {
  /** This session ended (its SessionEnd): its pending changes are due now, whatever their age. */
  session?: string;
  /** The invocation whose post is being handled completes its own entry. */
  except?: string;
  /** `governor check`: past the grace period, an unchanged entry is dropped at once. */
  dropUnchanged?: boolean;
  /**
   * Stop looking at further entries once this many milliseconds went by (a hook call's pass). The pass starts at a
   * random entry, so with many of them each gets its turn over the next calls. Default: no limit.
   */
  budgetMs?: number;
  now?: number;
}

export interface ReconcileSummary {
  recorded: number;
  dropped: number;
  /** Still within their grace period, or unchanged and kept for a post that may still come. */
  waiting: number;
}

/** What a reconciliation records for one file of an entry: the bridge turns it into a trace record. */
export interface ChangedFile {
  file: PendingNativeFile;
  state: Extract<FileState, { kind: 'changed' }>;
}

export type RecordReconciled = (held: HeldEntry, changed: ChangedFile[], reason: string) => Promise<void>;

/** Trace lines read back when a dead holder's claim is taken over (did it record before it died?). */
const TAIL_LINES = 512;
const TAIL_BYTES = 2 * 1024 * 1024;

/**
 * One pass over the workspace's pending native changes (one directory listing; an empty folder costs nothing
 * more): a change whose post never came is recorded once its files have been quiet for the grace period (at
 * once when the governor that allowed it is gone or its session ended); one whose files are unchanged is dropped
 * (the tool failed, or the agent's person said no) when its session ends, on `governor check`, or after an hour.
 */
export async function reconcileNativeChanges(pending: PendingNativeChanges, root: string, record: RecordReconciled, options: ReconcileOptions = {}): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = { recorded: 0, dropped: 0, waiting: 0 };
  const listings = pending.list();
  if (listings.length === 0) return summary;
  const now = options.now ?? Date.now();
  const host = currentProcess().host;
  const started = Date.now();
  const first = options.budgetMs === undefined ? 0 : Math.floor(Math.random() * listings.length);
  for (let n = 0; n < listings.length; n++) {
    if (options.budgetMs !== undefined && n > 0 && Date.now() - started > options.budgetMs) break;
    const listing = listings[(first + n) % listings.length];
    if (listing.liveClaim) continue; // a post or another reconciliation is recording it right now
    if (listing.entry) {
      const entry = pending.peek(listing.id);
      const age = pending.ageOf(listing.id, now);
      if (!entry || age === undefined || entry.key === options.except) continue;
      const ownerGone = entry.resident && entry.host === host && localProcessGone(entry.pid, entry.pid_start);
      const ended = options.session !== undefined && entry.session_id === options.session;
      const rushed = ownerGone || ended;
      const { posted } = listing;
      if (!rushed && !posted && age < POST_GRACE_MS) {
        summary.waiting++;
        continue;
      }
      // A confined command still running (in the agent's background shell): what it writes is not all there yet.
      if (entry.command && confinedCommandRunning(entry.command.temp_dir)) {
        summary.waiting++;
        continue;
      }
      const changed = await changedFiles(pending, entry, listing.id);
      if (changed.length === 0) {
        if (ended || options.dropUnchanged || age > UNCHANGED_KEEP_MS) {
          if (pending.drop(listing.id)) {
            summary.dropped++;
            // A confined command that never ran (its ask was declined, the agent stopped): its temp folder goes too.
            if (entry.command) await releaseCommand(root, entry.command);
          }
        } else summary.waiting++;
        continue;
      }
      // Written moments ago (a person approved only now): its post is most likely on its way; or, its post come, still being saved.
      if (!rushed && changed.some((c) => now - c.state.mtimeMs < (posted ? POSTED_QUIET_MS : POST_GRACE_MS))) {
        summary.waiting++;
        continue;
      }
      const held = pending.claim(listing.id, `native.${listing.id}.json`);
      if (!held) continue; // its post took it first
      const reason = posted ? POSTED_EARLY : ended ? `${RECONCILED} (the session ended)` : ownerGone ? OWNER_STOPPED : RECONCILED;
      summary.recorded += await recordHeld(pending, held, reason, record, () => undefined);
    } else {
      for (const name of listing.deadClaims) {
        const held = pending.claim(listing.id, name);
        if (!held) continue;
        // Its holder may have written the record before it died: a record already in the trace is not written twice.
        summary.recorded += await recordHeld(pending, held, RECORDER_STOPPED, record, () => recordedInvocations(root));
        break;
      }
    }
  }
  return summary;
}

/** Records what changed of a held entry, then leaves the `done` marker; nothing changed: the entry just goes. */
async function recordHeld(pending: PendingNativeChanges, held: HeldEntry, reason: string, record: RecordReconciled, alreadyRecorded: () => Set<string> | undefined): Promise<number> {
  // Judged again now that this process holds it: what the files hold at this moment is what is recorded.
  const changed = await changedFiles(pending, held.entry, held.id);
  if (changed.length === 0) {
    pending.release(held.id);
    return 0;
  }
  const recorded = alreadyRecorded();
  const invocation = held.entry.command?.invocation_id ?? `${held.entry.key}#`;
  const due = recorded ? changed.filter((c) => !recorded.has(`${held.entry.command ? invocation : `${invocation}${c.file.index}`}\0${c.state.hash}`)) : changed;
  try {
    if (due.length) await record(held, due, reason);
  } catch (error) {
    pending.putBack(held.id); // the next pass tries again
    throw error;
  }
  pending.markRecorded(held.id, Object.fromEntries(changed.map((c) => [c.file.path, c.state.hash])));
  return due.length ? 1 : 0;
}

async function changedFiles(pending: PendingNativeChanges, entry: PendingNativeChange, id: string): Promise<ChangedFile[]> {
  // A confined shell command: what changed under its writable roots since the snapshot (none readable: nothing to diff).
  // Protected paths it made are removed by commandChanges here too; the refusal is told by the post, when it comes.
  if (entry.command) return (await commandChanges(pending.root, entry.command, pending.snapshotOf(id)))?.changes ?? [];
  const changed: ChangedFile[] = [];
  for (const file of entry.files) {
    const state = pending.fileState(file);
    if (state.kind === 'changed') changed.push({ file, state });
  }
  return changed;
}

/** `<invocation id>\0<after hash>` of the trace's last records. */
function recordedInvocations(root: string): Set<string> {
  const seen = new Set<string>();
  for (const record of recentRecords(root, TAIL_LINES, TAIL_BYTES)) {
    if (record.invocationId === undefined) continue;
    for (const file of record.files) seen.add(`${record.invocationId}\0${file.after_hash ?? null}`);
  }
  return seen;
}
