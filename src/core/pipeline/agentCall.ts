import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { protectedPatternFor } from '../paths/protectedPaths';
import { decodeText, type CallFacts } from './callFacts';
import type { ToolCall } from './toolCall';

/** Larger files are governed, but their before-content is not kept for the trace (ranges then cover the whole file). */
const MAX_KEPT_BYTES = 2 * 1024 * 1024;

/** A file last modified longer ago than this is recognised as unchanged by its stat alone. */
const STAT_TRUSTED_AFTER_MS = 2_000;

/** One search/replace as an agent's own edit tool runs it; `all` = every occurrence (Claude's replace_all). */
export interface AgentEdit {
  search: string;
  replace: string;
  all?: boolean;
}

/**
 * What the door keeps of a file an agent's own tool is about to change, so its post phase (or a reconciliation)
 * can trace the change: where the canonicaliser placed it, what it held and its stat, as this call read them.
 */
export interface KeptTarget {
  abs: string;
  rel: string;
  /** The text before; absent when there was no file or it is larger than 2 MiB (then only its hash is kept). */
  before?: string;
  /** `sha256:` of the bytes before; null: there was no file. */
  before_hash: string | null;
  /** Taken before the read: while size, mtime and inode are the same, the file has not changed. */
  before_stat?: { size: number; mtime_ms: number; ino: number };
}

export type GovernedForm = { ok: true; call: ToolCall; target?: KeptTarget } | { ok: false; reason: string };

/**
 * The governed call an agent's own call is judged as (the `authorize` mode: the agent's tool runs it once we
 * answer). Its input comes as the agent's tool will run it: absolute paths resolved where the agent stands, edits
 * that may replace every occurrence or be unknown (none: the tool works out the new text when it runs), no basis.
 *
 * Nothing is read before the canonicaliser has placed the target inside the workspace and outside the protected
 * paths: a refused target goes to the guards unread (they refuse it and log it), and an accepted one is read once,
 * through `facts`, by the workspace's regular-file reader, so a FIFO, a device or a huge file is refused, never
 * waited on. The basis is what the agent read when its session's reads reach this governor (a change made since
 * is then a STALE_FILE), else the file as it is now.
 */
export async function governedFormOf(facts: CallFacts): Promise<GovernedForm> {
  const { call, services } = facts;
  const { input } = call;
  if (call.tool === 'run_command') return { ok: true, call: { ...call, input: { command: input.command, ...commandCwd(services.workspace.root, input.cwd) } } };
  if (call.tool !== 'write_file' && call.tool !== 'edit_file') return { ok: true, call };
  const edits = call.tool === 'edit_file' ? ((input.edits ?? []) as AgentEdit[]) : undefined;
  const target = await facts.target();
  // Outside the workspace, protected, or not a regular file: the guards refuse it (and log it) without a read.
  if (!target.ok || protectedPatternFor(target.value.rel)) return { ok: true, call: { ...call, ...unread(input, edits) } };
  const { abs, rel } = target.value;
  // Before the read: a change made between the two shows as a different stat later, never as "unchanged".
  const stat = lstatSync(abs, { throwIfNoEntry: false });
  let bytes: Uint8Array | undefined;
  try {
    bytes = await facts.current(abs);
  } catch (error) {
    return { ok: false, reason: `Intent Governor could not read ${rel} as the basis of the change (${error instanceof Error ? error.message : String(error)}), so the change is refused.` };
  }
  const current = decodeText(bytes);
  const readByAgent = services.sessions.lastRead(call.session_id, rel) !== undefined;
  const beforeHash = await facts.hash(abs);
  const basis = beforeHash === null || readByAgent ? {} : { expected_content_hash: beforeHash };
  // The stat lets a later reconciliation skip hashing an untouched file; only a file older than the filesystem's
  // clock tick can be told apart that way from a write of the same size right after this.
  const settled = stat?.isFile() && Date.now() - stat.mtimeMs > STAT_TRUSTED_AFTER_MS ? stat : undefined;
  const kept: KeptTarget = {
    abs,
    rel,
    ...(bytes !== undefined && bytes.byteLength <= MAX_KEPT_BYTES ? { before: current } : {}),
    before_hash: beforeHash,
    ...(settled ? { before_stat: { size: settled.size, mtime_ms: settled.mtimeMs, ino: settled.ino } } : {}),
  };
  const governed = (tool: string, rest: Record<string, unknown>): GovernedForm => ({ ok: true, call: { ...call, tool, input: { path: rel, ...rest, ...basis } }, target: kept });
  if (edits === undefined) return governed('write_file', { content: input.content });
  // New text unknown until the tool runs: judged as a write of the file as it stands; post traces what it wrote.
  if (edits.length === 0) return governed('write_file', { content: current ?? '' });
  if (!edits.some((e) => e.all)) return governed('edit_file', { edits: edits.map((e) => ({ search: e.search, replace: e.replace })) });
  // replace_all has no edit_file equivalent: judge the content it would leave as a write based on the same basis.
  const next = current === undefined ? undefined : applyAgentEdits(current, edits);
  if (next === undefined) return { ok: false, reason: `The edit of ${rel} does not apply to its current content (a search text is missing); read the file again.` };
  return governed('write_file', { content: next });
}

/** A file call as the guards see it when its target is refused before any read: no basis, edits as given. */
function unread(input: Record<string, unknown>, edits: AgentEdit[] | undefined): Pick<ToolCall, 'tool' | 'input'> {
  if (edits === undefined) return { tool: 'write_file', input };
  if (edits.length === 0) return { tool: 'write_file', input: { path: input.path, content: '' } };
  return { tool: 'edit_file', input: { path: input.path, edits: edits.map((e) => ({ search: e.search, replace: e.replace })) } };
}

/**
 * run_command's `cwd` (workspace-relative) for the directory the agent's shell runs in. The root needs none;
 * a directory outside stays absolute, so the canonicaliser refuses the command as outside the workspace.
 */
function commandCwd(root: string, abs: unknown): { cwd?: unknown } {
  if (typeof abs !== 'string') return abs === undefined ? {} : { cwd: abs };
  const real = realpathOrSelf(abs); // the agent may name the workspace through a link; the root here is realpath'd
  const rel = relative(root, real);
  if (rel === '') return {};
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { cwd: abs };
  return { cwd: rel.split(sep).join('/') };
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path; // not there (yet): judged as named
  }
}

/** Applies an agent's edits in order; undefined when a search text is missing (the agent's tool would fail too). */
export function applyAgentEdits(text: string, edits: AgentEdit[]): string | undefined {
  let result = text;
  for (const edit of edits) {
    if (!result.includes(edit.search)) return undefined;
    result = edit.all ? result.split(edit.search).join(edit.replace) : result.replace(edit.search, () => edit.replace);
  }
  return result;
}
