import assert from 'node:assert/strict';
import { CallWindows, type WatchedCall } from '../../../../src/core/watch/callWindows';
import { EventBatch, isWatchedPath, judgeChange, openUngoverned, ungovernedRecordOf, acceptedRecordOf, type KnownContent } from '../../../../src/core/watch/ungovernedChanges';
import { UngovernedWatcher, type CurrentContent, type FileEventSource, type UngovernedFinding } from '../../../../src/core/watch/ungovernedWatcher';

const task: WatchedCall = { key: 'toolu_task', session_id: 's1', agent: { name: 'claude' }, tool: 'Task', targets: [] };
const write: WatchedCall = { key: 'toolu_write', session_id: 's1', agent: { name: 'claude' }, tool: 'Write', targets: ['src/a.ts'] };
const none: KnownContent = { hash: null, from: 'none' };

describe('ungoverned changes: call windows and the explained-or-not decision', () => {
  it('the governor’s own files and git’s are never watched, at any depth', () => {
    assert.equal(isWatchedPath('src/a.ts'), true);
    assert.equal(isWatchedPath('.orchestration/agent_trace.jsonl'), false);
    assert.equal(isWatchedPath('.orchestration/pending/native.x'), false);
    assert.equal(isWatchedPath('.git/HEAD'), false);
    assert.equal(isWatchedPath('vendor/lib/.git/index'), false);
    assert.equal(isWatchedPath('../outside'), false);
  });

  it('a change with no call open is outside; one in an open call’s window is ungoverned unless the call targets it or the governor knows it', () => {
    const windows = new CallWindows(100);
    assert.deepEqual(judgeChange('src/b.ts', 0, 'sha256:x', none, windows), { kind: 'outside' });
    assert.equal(windows.openCall(task, 1_000), true);
    assert.equal(windows.openCall(write, 1_010), false);
    assert.equal(judgeChange('src/b.ts', 1_020, 'sha256:x', none, windows).kind, 'ungoverned');
    assert.equal(judgeChange('src/a.ts', 1_020, 'sha256:x', none, windows).kind, 'explained');
    assert.equal(judgeChange('src/b.ts', 1_020, 'sha256:x', { hash: 'sha256:x', from: 'read' }, windows).kind, 'unchanged');
    assert.equal(judgeChange('.orchestration/x', 1_020, 'sha256:x', none, windows).kind, 'ignored');
    // The write closed: its target is explained for the grace after, then judged like any other path.
    windows.closeCall('s1', 'toolu_write', 1_030);
    assert.equal(judgeChange('src/a.ts', 1_100, 'sha256:x', none, windows).kind, 'explained');
    assert.equal(judgeChange('src/a.ts', 1_500, 'sha256:x', none, windows).kind, 'ungoverned');
    assert.equal(windows.closeCall('s1', 'toolu_task', 1_600), true);
    assert.equal(judgeChange('src/b.ts', 5_000, 'sha256:x', none, windows).kind, 'outside');
  });

  it('a shell call explains its writes in its scope (its own record holds them), not a change outside it', () => {
    const windows = new CallWindows(100);
    const bash: WatchedCall = { key: 'toolu_bash', session_id: 's1', agent: { name: 'claude' }, tool: 'Bash', targets: [], explains: (rel) => rel.startsWith('src/auth/') };
    windows.openCall(bash, 1_000);
    assert.equal(judgeChange('src/auth/new.ts', 1_020, 'sha256:x', none, windows).kind, 'explained');
    assert.equal(judgeChange('src/other/new.ts', 1_020, 'sha256:x', none, windows).kind, 'ungoverned');
  });

  it('the latest opened call takes the attribution; a session’s end closes its windows', () => {
    const windows = new CallWindows(10);
    windows.openCall(task, 0);
    windows.openCall({ ...task, key: 'toolu_other', session_id: 's2' }, 5);
    assert.equal(windows.attribute(6)?.session_id, 's2');
    assert.equal(windows.closeSession('s2', 7), false);
    assert.equal(windows.attribute(100)?.key, 'toolu_task');
    assert.equal(windows.closeSession('s1', 101), true);
    // A change seen before a call opened is never that call's.
    windows.openCall({ ...task, key: 'toolu_late' }, 200);
    assert.equal(windows.attribute(199), undefined);
  });

  it('a burst is its distinct paths, bounded: the rest only counted', () => {
    const batch = new EventBatch(3);
    for (let i = 0; i < 5_000; i++) batch.add(`f${i % 5}`, i);
    const taken = batch.take();
    assert.deepEqual(taken.paths.map(([p]) => p), ['f0', 'f1', 'f2']);
    assert.equal(taken.dropped, 2);
    assert.equal(batch.size, 0);
  });

  it('open records: not accepted and not reverted; an unwatched one stays until accepted', () => {
    const line = (id: string, meta: Record<string, unknown>) => ungovernedRecordOf(1, { id, metadata: { kind: 'ungoverned', session_id: 's1', ungoverned: { call: { tool: 'Task', call_id: 'toolu_task' } }, ...meta } });
    assert.equal(ungovernedRecordOf(1, { id: 'm', metadata: { kind: 'mutation' } }), undefined);
    const changed = line('r1', { files: [{ path: 'src/b.ts', before_hash: 'sha256:old', after_hash: 'sha256:new' }] });
    const created = line('r2', { files: [{ path: 'src/c.ts', after_hash: 'sha256:c' }] });
    const unwatched = line('r3', { files: [], ungoverned: { call: { tool: 'Task', call_id: 't' }, unwatched: 'EMFILE' } });
    assert.equal(changed?.tool, 'Task');
    assert.equal(unwatched?.unwatched, 'EMFILE');
    const records = [changed, created, unwatched].filter((r) => r !== undefined);
    const disk = new Map<string, string | null>([['src/b.ts', 'sha256:new'], ['src/c.ts', 'sha256:c']]);
    const current = (path: string) => disk.get(path) ?? null;
    assert.deepEqual(openUngoverned(records, new Set(), current).map((r) => r.id), ['r1', 'r2', 'r3']);
    disk.set('src/b.ts', 'sha256:old');
    disk.delete('src/c.ts');
    assert.deepEqual(openUngoverned(records, new Set(), current).map((r) => r.id), ['r3']);
    assert.deepEqual(openUngoverned(records, new Set(['r3']), current), []);
    assert.equal(acceptedRecordOf({ kind: 'governance', code: 'UNGOVERNED_ACCEPTED', record_id: 'r3' }), 'r3');
    assert.equal(acceptedRecordOf({ kind: 'governance', code: 'SCOPE_VIOLATION', record_id: 'r3' }), undefined);
  });
});

/** A file-event source the test drives; `fail` makes the next watch throw. */
class FakeEvents implements FileEventSource {
  emit: ((rel: string) => void) | undefined;
  starts = 0;
  closes = 0;
  fail: string | undefined;
  watch(_root: string, onPath: (rel: string) => void): { close(): void } {
    if (this.fail) throw new Error(this.fail);
    this.starts += 1;
    this.emit = onPath;
    return { close: () => ((this.closes += 1), (this.emit = undefined)) };
  }
}

describe('UngovernedWatcher (fake events and files)', () => {
  let events: FakeEvents;
  let files: Map<string, string>;
  let found: UngovernedFinding[];
  let errors: string[];
  let watcher: UngovernedWatcher;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

  beforeEach(() => {
    events = new FakeEvents();
    files = new Map();
    found = [];
    errors = [];
    watcher = new UngovernedWatcher('/w', {
      events,
      known: async (rel) => (rel === 'src/read.ts' ? { hash: 'sha256:read', from: 'read' } : none),
      current: async (rel): Promise<CurrentContent> => (rel === 'src' ? 'folder' : { hash: files.has(rel) ? `sha256:${files.get(rel)}` : null, text: files.get(rel) }),
      record: async (finding) => void found.push(finding),
      logger: { info: () => undefined, warn: () => undefined, error: (m) => void errors.push(m) },
    }, { settleMs: 20, maxPaths: 10 });
  });

  it('watches only while a call is open: starts at the first, stops after the last closed; idle costs nothing', async () => {
    assert.equal(watcher.isWatching, false);
    watcher.open(task);
    watcher.open(write);
    assert.equal(events.starts, 1);
    watcher.close('s1', 'toolu_write');
    assert.equal(watcher.isWatching, true);
    watcher.close('s1', 'toolu_task');
    await settle();
    assert.equal(watcher.isWatching, false);
    assert.equal(events.closes, 1);
  });

  it('records a change behind the call’s back, with before and after; not the call’s own target, a folder, or a file as the session read it', async () => {
    watcher.open(task);
    watcher.open(write);
    files.set('src/b.ts', 'new').set('src/a.ts', 'x').set('src/read.ts', 'read');
    for (const rel of ['src/b.ts', 'src/b.ts', 'src/a.ts', 'src', 'src/read.ts', '.orchestration/agent_trace.jsonl']) events.emit?.(rel);
    watcher.close('s1', 'toolu_write');
    watcher.close('s1', 'toolu_task');
    await watcher.flush();
    assert.equal(found.length, 1, JSON.stringify(found));
    const [change] = found;
    assert.equal(change.kind, 'change');
    if (change.kind !== 'change') return;
    assert.equal(change.path, 'src/b.ts');
    assert.equal(change.call.key, 'toolu_write'); // the latest opened call open when it was seen
    assert.deepEqual(change.before, none);
    assert.equal(change.after.hash, 'sha256:new');
  });

  it('a second change to the same file is judged against what was recorded: a rewrite of the same bytes is nothing new', async () => {
    watcher.open(task);
    files.set('src/b.ts', 'one');
    events.emit?.('src/b.ts');
    await watcher.flush();
    events.emit?.('src/b.ts');
    await watcher.flush();
    files.set('src/b.ts', 'two');
    events.emit?.('src/b.ts');
    await watcher.flush();
    assert.deepEqual(found.map((f) => (f.kind === 'change' ? `${f.before.hash}>${f.after.hash}` : f.kind)), ['null>sha256:one', 'sha256:one>sha256:two']);
  });

  it('a watcher that cannot start is logged and recorded once as an unwatched window (fail closed)', async () => {
    events.fail = 'ENOSPC: inotify watches exhausted';
    watcher.open(task);
    watcher.open({ ...task, key: 'toolu_2' });
    await settle();
    assert.equal(found.length, 1);
    assert.equal(found[0].kind, 'unwatched');
    assert.match(errors.join('\n'), /cannot watch \/w during Task .*ENOSPC/u);
  });

  it('a burst over the bound hashes the first paths and records how many were left', async () => {
    watcher.open(task);
    for (let i = 0; i < 1_000; i++) {
      files.set(`f${i}`, String(i));
      events.emit?.(`f${i}`);
    }
    await watcher.flush();
    assert.equal(found.filter((f) => f.kind === 'change').length, 10);
    const left = found.find((f) => f.kind === 'unwatched');
    assert.equal(left?.kind === 'unwatched' ? left.unhashed : undefined, 990);
  });
});

describe('an ungoverned record as the trace writes it', () => {
  it("is kind 'ungoverned' with its note and no decision; a mutation stays a mutation", async () => {
    const { buildMutationRecord } = await import('../../../../src/core/trace/traceRecord');
    const event = { timestamp: '2026-01-01T00:00:00.000Z', invocation_id: 'toolu_task#ungoverned', session_id: 's1', agent: { name: 'claude' }, tool: 'Task', mutation_class: 'write' as const, files: [{ path: 'src/b.ts', after: 'x\n' }], decision: 'allow' as const };
    const record = buildMutationRecord({ ...event, ungovernedNote: { call: { tool: 'Task', call_id: 'toolu_task' }, before_from: 'none' } }, { workspaceRoot: '/w', toolVersion: '0' });
    assert.equal(record.metadata.kind, 'ungoverned');
    assert.equal(record.metadata.decision, undefined);
    assert.deepEqual(record.metadata.ungoverned, { call: { tool: 'Task', call_id: 'toolu_task' }, before_from: 'none' });
    assert.equal(ungovernedRecordOf(3, record)?.files[0].path, 'src/b.ts');
    assert.equal(buildMutationRecord(event, { workspaceRoot: '/w', toolVersion: '0' }).metadata.kind, 'mutation');
  });
});
