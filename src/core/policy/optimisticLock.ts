import { createTwoFilesPatch } from 'diff';
import { contentHash } from '../contentHash';
import { ioToolError } from '../ioError';
import { fail, ok, toolError, type Result, type ToolError } from '../toolError';
import { checkAncestors } from '../paths/ancestorCheck';
import type { WriteAhead } from '../trace/traceSink';
import type { StagedReplace, Workspace } from '../workspace';
import type { WriteLocks } from './writeLocks';

/** What the agent based its change on; `text` when the session ledger kept the content, for the diff. */
export interface ReadBasis {
  hash: string;
  text?: string;
}

export interface GuardedTarget {
  abs: string;
  rel: string;
}

/** What the trace needs about a guarded write; `before` is absent when the file was created. */
export interface ReplaceOutcome {
  before?: Uint8Array;
  beforeHash?: string;
  afterHash?: string;
}

const DIFF_MAX_LINES = 200;
const DIFF_MAX_BYTES = 16 * 1024;
/** Beyond these, a line diff costs more than it tells; the agent is told to read the file again. */
const DIFF_MAX_INPUT_BYTES = 2 * 1024 * 1024;
const DIFF_MAX_EDIT_LENGTH = 5000;

/** Everything a guarded write was decided on, fixed when the call was checked (see CallFacts). */
export interface GuardedWrite {
  target: GuardedTarget;
  /** What the agent based its change on (its hash, or the session's read). */
  basis: ReadBasis | undefined;
  /** The bytes the proposed content was computed from (undefined = no file): the file must still hold exactly these. */
  computedFrom: Uint8Array | undefined;
  /** The new bytes, or null to delete. */
  next: Uint8Array | null;
  /** The call's cancellation: a call its agent stopped waiting for never writes. */
  signal?: AbortSignal;
  /**
   * Runs under the lock after the last check, right before the rename: appends the write-ahead trace record.
   * If it rejects, nothing is written (no change without a record).
   */
  record(outcome: ReplaceOutcome, staged?: StagedReplace): Promise<WriteAhead>;
}

/**
 * Writes (or deletes, when `next` is null) only if the file is still what the change was computed from and
 * what the agent read. Under the cross-process write lock: check, write the temp file, check again (content,
 * unsaved editor, every folder on the path, cancellation), append the trace record, check a last time, rename. Other governor
 * processes take the same lock, so exactly one of several racing writers wins; a process that is not a
 * governor (an editor, git) can still land a write in the few syscalls between the last check and the rename.
 */
export async function replaceIfUnchanged(ws: Workspace, locks: WriteLocks, write: GuardedWrite): Promise<Result<ReplaceOutcome>> {
  try {
    return await locks.run(write.target.abs, () => guardedReplace(ws, write), { signal: write.signal });
  } catch (error) {
    if (write.signal?.aborted) return fail(cancelledError(write.target.rel));
    // readFile throws only for real I/O trouble (EACCES, EISDIR…), the lock only when it cannot be had: report it.
    return fail(ioToolError(error, 'read', write.target.rel));
  }
}

/**
 * Pure: why a change based on `basis` must not replace `current` (undefined = no file), or undefined when
 * it may. Shared with the stale-guard pre-hook, which refuses early without writing.
 */
export function checkBasis(rel: string, basis: ReadBasis | undefined, current: Uint8Array | undefined): ToolError | undefined {
  if (basis === undefined) {
    if (current === undefined) return undefined; // creating a new file needs no prior read
    return toolError(
      'PRECONDITION_REQUIRED',
      `${rel} already exists and your call did not say which version it is based on. ` +
        `read_file it first and pass its content_hash as expected_content_hash.`,
      { path: rel, current_content_hash: contentHash(current) },
    );
  }
  if (current !== undefined && contentHash(current) === normalizeHash(basis.hash)) return undefined;
  return staleFileError(rel, basis, current);
}

/** STALE_FILE for a file that changed or vanished since the agent's read, with a diff when one can be shown. */
export function staleFileError(rel: string, basis: ReadBasis, current: Uint8Array | undefined): ToolError {
  if (current === undefined) {
    return toolError(
      'STALE_FILE',
      `${rel} was deleted since you read it; your change was not applied. Do not recreate it blindly: ` +
        `check with the human whether it should still exist, then create it without expected_content_hash.`,
      { path: rel, expected_content_hash: basis.hash, current_content_hash: null, reason: 'deleted' },
    );
  }
  const diff = diffSinceRead(rel, basis.text, current);
  const explanation =
    basis.text === undefined
      ? 'The content you based your change on is unknown to the governor, so no diff can be shown: read_file it again'
      : 'meta.diff shows what changed since your read: read_file it again';
  return toolError(
    'STALE_FILE',
    `${rel} changed since you read it (someone else saved it); your change was not applied. ` +
      `${explanation}, redo your change on the current content and pass the new content_hash.`,
    {
      path: rel,
      expected_content_hash: basis.hash,
      current_content_hash: contentHash(current),
      reason: 'changed',
      diff,
    },
  );
}

/** STALE_FILE because a human is mid-edit: writing under their buffer would lose one side's work. */
export function unsavedEditorError(rel: string): ToolError {
  return toolError(
    'STALE_FILE',
    `A human has unsaved edits to ${rel} in an editor; your change was not applied. ` +
      `Ask them to save or discard those edits, then read_file it again and redo your change.`,
    { path: rel, reason: 'unsaved_editor' },
  );
}

async function guardedReplace(ws: Workspace, write: GuardedWrite): Promise<Result<ReplaceOutcome>> {
  const { target, next } = write;
  const before = await ws.readFile(target.abs);
  if (next === null && before === undefined) {
    return fail(
      toolError(
        'INVALID_INPUT',
        `${target.rel} does not exist, so there is nothing to delete (it may have been deleted since you read it). ` +
          `Use list_files to see what is there.`,
        { path: target.rel },
      ),
    );
  }
  const refusal = await refusalFor(ws, write, before);
  if (refusal) return fail(refusal);

  const outcome: ReplaceOutcome = {
    ...(before !== undefined && { before, beforeHash: contentHash(before) }),
    ...(next !== null && { afterHash: contentHash(next) }),
  };
  let pending: WriteAhead | undefined;
  // The record first, the last check after it: appending can wait for the log's lock, and whatever happened in
  // that wait (a save, a cancellation) must still stop the rename. A late refusal voids the record (below).
  const beforeReplace = async (staged?: StagedReplace): Promise<ToolError | undefined> => {
    const early = await refusalFor(ws, write, await ws.readFile(target.abs));
    if (early) return early;
    try {
      pending = await write.record(outcome, staged);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return toolError('HOOK_ERROR', `The trace record of this change could not be written (${why}), so ${target.rel} was not changed (no change without a record). Tell the user; retry once the trace is writable.`, {
        path: target.rel,
        reason: 'trace_unavailable',
      });
    }
    return refusalFor(ws, write, await ws.readFile(target.abs));
  };
  const error = next === null ? await ws.deleteFile(target.abs, { beforeReplace }) : await ws.replaceFile(target.abs, next, { beforeReplace });
  if (error) {
    await pending?.abandoned(error);
    return fail(error);
  }
  await pending?.landed();
  return ok(outcome);
}

/** Why the change must not land on `current` now, or undefined when it may. */
async function refusalFor(ws: Workspace, write: GuardedWrite, current: Uint8Array | undefined): Promise<ToolError | undefined> {
  const { rel, abs } = write.target;
  if (write.signal?.aborted) return cancelledError(rel);
  const refusal = checkBasis(rel, write.basis, current);
  if (refusal) return refusal;
  const computedFrom = write.computedFrom === undefined ? undefined : { hash: contentHash(write.computedFrom), text: decodeText(write.computedFrom) };
  const moved = checkBasis(rel, computedFrom, current);
  if (moved) return moved;
  if (await ws.hasUnsavedChanges?.(abs)) return unsavedEditorError(rel);
  return checkAncestors(ws.root, abs, rel);
}

/** The agent stopped waiting (its client timed out, disconnected or cancelled): the change is dropped. */
export function cancelledError(rel: string): ToolError {
  return toolError('HITL_REJECT', `The call was cancelled (the agent stopped waiting for it), so ${rel} was not changed. Call again if the change is still wanted.`, {
    path: rel,
    reason: 'cancelled',
  });
}

/** Agents copy hashes loosely: accept a bare hex digest and any letter case. */
function normalizeHash(hash: string): string {
  const trimmed = hash.trim().toLowerCase();
  return /^[0-9a-f]{64}$/.test(trimmed) ? `sha256:${trimmed}` : trimmed;
}

/** A capped unified diff from what the agent read to what is there now, or a one-line note why not. */
function diffSinceRead(rel: string, readText: string | undefined, current: Uint8Array): string {
  if (readText === undefined) return '(unknown: the governor did not keep the content you read; read_file again to see the current content)';
  const currentText = decodeText(current);
  if (currentText === undefined || readText.includes('\0')) return '(binary content: no text diff; read_file again)';
  if (Buffer.byteLength(readText) > DIFF_MAX_INPUT_BYTES || current.byteLength > DIFF_MAX_INPUT_BYTES) {
    return '(too large for a diff preview; read_file again)';
  }
  const patch = createTwoFilesPatch(`a/${rel} (your read)`, `b/${rel} (now)`, readText, currentText, undefined, undefined, {
    maxEditLength: DIFF_MAX_EDIT_LENGTH,
  });
  if (patch === undefined) return '(too many changes for a diff preview; read_file again)';
  return capLines(patch);
}

/** UTF-8 text, or undefined for content that is not text (invalid UTF-8 or NUL bytes). */
function decodeText(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.includes('\0') ? undefined : text;
  } catch {
    return undefined;
  }
}

function capLines(patch: string): string {
  const lines = patch.endsWith('\n') ? patch.slice(0, -1).split('\n') : patch.split('\n');
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    bytes += Buffer.byteLength(line) + 1;
    if (kept.length >= DIFF_MAX_LINES || bytes > DIFF_MAX_BYTES) break;
    kept.push(line);
  }
  const more = lines.length - kept.length;
  return more > 0 ? `${kept.join('\n')}\n… ${more} more lines\n` : `${kept.join('\n')}\n`;
}
