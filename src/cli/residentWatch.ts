import { lstat, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { BridgeAnswer, BridgeRequest } from '../core/agents/common/nativeCall';
import { contentHash } from '../core/contentHash';
import { runGit } from '../core/git/gitRun';
import type { Governor } from '../core/governor';
import type { Logger } from '../core/logger';
import type { WatchedCall } from '../core/watch/callWindows';
import type { KnownContent, UngovernedNote } from '../core/watch/ungovernedChanges';
import { UngovernedWatcher, type CurrentContent, type UngovernedFinding } from '../core/watch/ungovernedWatcher';
import { fsWatchEvents } from './fsWatchEvents';

/** Events settle this long before they are judged (INTENT_GOVERNOR_WATCH_SETTLE_MS): well inside the 2 s to the record. */
const DEFAULT_SETTLE_MS = 300;
/** Larger files are not read to hash them: their change is recorded as not hashed. */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

/** The resident's ungoverned-change watch: each hook call opens or closes its window around the bridge's answer. */
export interface ResidentWatch {
  before(request: BridgeRequest): void;
  after(request: BridgeRequest, answer: BridgeAnswer | undefined): void;
  dispose(): Promise<void>;
}

export function residentWatch(root: string, roots: ReadonlySet<string>, governor: Governor, logger: Logger, env: NodeJS.ProcessEnv): ResidentWatch {
  const settleMs = Math.max(10, Number(env.INTENT_GOVERNOR_WATCH_SETTLE_MS) || DEFAULT_SETTLE_MS);
  const watcher = new UngovernedWatcher(root, { events: fsWatchEvents(env), known: (rel, call) => knownContent(root, governor, rel, call), current: (rel) => currentContent(root, rel), record: (finding) => recordFinding(governor, finding), logger }, { settleMs });
  const relative_ = (path: string) => workspaceRelative(roots, path);
  return {
    before(request) {
      // A call whose post will not come is completed by the resident itself: no window would ever close.
      if (request.phase === 'pre' && !request.unposted) watcher.open(watchedCall(request, relative_, shellExplains(request)));
    },
    after(request, answer) {
      if (request.phase === 'pre' && (answer === undefined || answer.decision === 'deny')) watcher.close(request.session_id, request.key);
      else if (request.phase === 'post') watcher.close(request.session_id, request.key);
      // The turn is over (Stop) or the session is: a call whose post never came (a tool the hooks send no post for) closes.
      else if (request.phase === 'end' || request.native?.event === 'Stop') watcher.endSession(request.session_id);
    },
    dispose: () => watcher.dispose(),
  };
}

function watchedCall(request: BridgeRequest, rel: (path: string) => string | undefined, explains: ((rel: string) => boolean) | undefined): WatchedCall {
  const targets = request.calls.flatMap((call) => (call.tool === 'write_file' || call.tool === 'edit_file' ? [rel(call.input.path)] : [])).filter((t): t is string => t !== undefined);
  // The door keys a call `<session>:<tool_use_id>`: the record names the agent's own id.
  const prefix = `${request.session_id}:`;
  const callId = request.key.startsWith(prefix) ? request.key.slice(prefix.length) : request.key;
  return { key: request.key, session_id: request.session_id, call_id: callId, agent: request.agent, tool: request.native?.tool_name ?? request.calls[0]?.tool ?? 'unknown', targets, ...(explains ? { explains } : {}) };
}

/**
 * A shell call's own writes are on its own record: a confined command can write only in its intent's scope and its
 * after-snapshot (held until the sandbox's last process ends, background ones included) records each change; a
 * judged command's post records what it names. So a change while a shell call is open is that call's. The cost: a
 * subagent's write during a shell call of the same agent is not told apart from the command's.
 */
function shellExplains(request: BridgeRequest): ((rel: string) => boolean) | undefined {
  return request.calls.some((call) => call.tool === 'run_command') ? () => true : undefined;
}

/** A path as the watcher names it (relative, POSIX), for either spelling of the workspace; undefined outside it. */
function workspaceRelative(roots: ReadonlySet<string>, path: string): string | undefined {
  if (!isAbsolute(path)) return path.split(sep).join('/').replace(/^\.\//u, '');
  for (const root of roots) {
    const rel = relative(root, path);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return undefined;
}

/** What the session read (or wrote by a governed call), else what git HEAD holds, else no file. */
async function knownContent(root: string, governor: Governor, rel: string, call: WatchedCall): Promise<KnownContent> {
  const read = governor.services.sessions.lastRead(call.session_id, rel);
  if (read) return { hash: read.hash, ...(read.text !== undefined ? { text: read.text } : {}), from: 'read' };
  const head = await runGit(root, ['show', `HEAD:./${rel}`], { timeoutMs: 5_000, maxBytes: MAX_HASHED_BYTES });
  if (head.ok) return { hash: contentHash(head.stdout), text: head.stdout.toString('utf8'), from: 'git' };
  return { hash: null, from: 'none' };
}

async function currentContent(root: string, rel: string): Promise<CurrentContent> {
  const abs = join(root, rel);
  try {
    const stat = await lstat(abs);
    if (stat.isDirectory()) return 'folder';
    if (!stat.isFile() || stat.size > MAX_HASHED_BYTES) return 'unreadable';
    const bytes = await readFile(abs);
    return { hash: contentHash(bytes), text: bytes.toString('utf8') };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? { hash: null } : 'unreadable';
  }
}

/** On the trace through the governor's own sink: redacted, chained and signed like every record. */
async function recordFinding(governor: Governor, finding: UngovernedFinding): Promise<void> {
  const { call } = finding;
  const note: UngovernedNote =
    finding.kind === 'change'
      ? { call: { tool: call.tool, call_id: call.call_id ?? call.key }, before_from: finding.before.from }
      : { call: { tool: call.tool, call_id: call.call_id ?? call.key }, unwatched: finding.reason, ...(finding.unhashed ? { unhashed: finding.unhashed } : {}) };
  const files =
    finding.kind === 'change'
      ? [{ path: finding.path, ...(finding.before.text !== undefined ? { before: finding.before.text } : finding.before.hash !== null ? { before_hash: finding.before.hash } : {}), ...(finding.after.hash !== null ? { after: finding.after.text ?? '' } : {}) }]
      : [];
  await governor.services.trace.recordMutation({
    timestamp: new Date(finding.at).toISOString(),
    invocation_id: `${call.key}#ungoverned`,
    session_id: call.session_id,
    agent: call.agent,
    tool: call.tool,
    mutation_class: finding.kind === 'change' && finding.after.hash === null ? 'delete' : 'write',
    files,
    decision: 'allow',
    ungovernedNote: note as unknown as Record<string, unknown>,
  });
}
