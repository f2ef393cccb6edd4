import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import { ioToolError } from '../ioError';
import { fail, ok, toolError, type Result, type ToolError } from '../toolError';
import type { Workspace } from '../workspace';
import type { PathLocks } from './pathLock';

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

/** `sha256:<hex>` of the bytes; strings are hashed as UTF-8. */
export function contentHash(data: Uint8Array | string): string {
  const hash = createHash('sha256');
  hash.update(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  return `sha256:${hash.digest('hex')}`;
}

/**
 * Writes (or deletes, when `next` is null) only if the file is still what the agent read: checked under
 * the per-path lock, and checked again right before the rename, because another process (a human's editor,
 * another agent's CLI) does not take our lock. A write landing between that re-check and the rename is
 * the only window left, and it is a few syscalls wide.
 */
export async function replaceIfUnchanged(
  ws: Workspace,
  locks: PathLocks,
  target: GuardedTarget,
  basis: ReadBasis | undefined,
  next: Uint8Array | null,
): Promise<Result<ReplaceOutcome>> {
  return locks.run(target.abs, async () => {
    try {
      return await guardedReplace(ws, target, basis, next);
    } catch (error) {
      // readFile throws only for real I/O trouble (EACCES, EISDIR…): report it, do not crash the call.
      return fail(ioToolError(error, 'read', target.rel));
    }
  });
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

async function guardedReplace(
  ws: Workspace,
  target: GuardedTarget,
  basis: ReadBasis | undefined,
  next: Uint8Array | null,
): Promise<Result<ReplaceOutcome>> {
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
  const refusal = await refusalFor(ws, target, basis, before);
  if (refusal) return fail(refusal);

  const options = { beforeReplace: async () => refusalFor(ws, target, basis, await ws.readFile(target.abs)) };
  const error = next === null ? await ws.deleteFile(target.abs, options) : await ws.replaceFile(target.abs, next, options);
  if (error) return fail(error);
  return ok({
    ...(before !== undefined && { before, beforeHash: contentHash(before) }),
    ...(next !== null && { afterHash: contentHash(next) }),
  });
}

async function refusalFor(
  ws: Workspace,
  target: GuardedTarget,
  basis: ReadBasis | undefined,
  current: Uint8Array | undefined,
): Promise<ToolError | undefined> {
  const refusal = checkBasis(target.rel, basis, current);
  if (refusal) return refusal;
  if (await ws.hasUnsavedChanges?.(target.abs)) return unsavedEditorError(target.rel);
  return undefined;
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
