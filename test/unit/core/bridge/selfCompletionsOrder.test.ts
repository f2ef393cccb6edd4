import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NativeCall } from '../../../../src/core/agents/common/nativeCall';
import { SelfCompletions } from '../../../../src/core/bridge/selfCompletions';
import { RecordingLogger } from '../../../support/governorHarness';

/** Which of an agent's next calls wait for the governor's own completion of a Write still being recorded. */
describe('SelfCompletions: a call judged while an earlier Write is still being recorded', () => {
  let root: string;
  let completions: SelfCompletions;
  /** `start <tool_use_id>` and `end <tool_use_id>` of each completion, `judged <what>` when a call was let through. */
  let seen: string[];
  let release: () => void;
  let held: Promise<void>;

  const write = (id: string, rel: string, content: string): { id: string; calls: NativeCall[] } => {
    const path = join(root, rel);
    return { id, calls: [{ tool: 'write_file', input: { path, content } }] };
  };
  /** The completion of call `id`: noted when it starts, and it ends once the test releases it. */
  const complete = (id: string) => async () => {
    seen.push(`start ${id}`);
    await held;
    seen.push(`end ${id}`);
  };
  const track = (call: { id: string; calls: NativeCall[] }) => completions.track(call.id, 'c1', call.calls, complete(call.id));
  /** The agent's next call: `before` with it, noted once it may be judged. */
  const next = (what: string, call: { id: string; calls: NativeCall[] }) => completions.before({ owner: 'c1', id: call.id, kind: 'next' }, () => call.calls).then(() => void seen.push(`judged ${what}`));
  const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ig-resident-completions-'));
    seen = [];
    held = new Promise<void>((resolve) => (release = resolve));
    completions = new SelfCompletions(new RecordingLogger());
  });
  afterEach(async () => {
    release();
    await completions.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a Write of another file is judged at once; an Edit of the file being recorded, and a command, wait for it', async () => {
    const a = write('t1', 'a.ts', 'a\n');
    track(a);
    writeFileSync(join(root, 'a.ts'), 'a\n');
    await settled();
    assert.deepEqual(seen, ['start t1'], 'the Write is being recorded once the file holds it');

    await next('write b.ts', write('t2', 'b.ts', 'b\n'));
    const path = join(root, 'A.ts');
    const edit = next('edit A.ts', { id: 't3', calls: [{ tool: 'edit_file', input: { path }, edits: [] }] });
    const command = next('bash', { id: 't4', calls: [{ tool: 'run_command', input: { command: 'cat a.ts' } }] });
    const post = completions.before({ owner: 'c1', id: 't5', kind: 'post' }).then(() => void seen.push('judged a post'));
    await settled();
    assert.deepEqual(seen, ['start t1', 'judged write b.ts'], 'only the call on another file went ahead');
    release();
    await Promise.all([edit, command, post]);
    assert.deepEqual(seen.slice(0, 3), ['start t1', 'judged write b.ts', 'end t1']);
    assert.deepEqual(new Set(seen.slice(3)), new Set(['judged edit A.ts', 'judged bash', 'judged a post']));
  });

  it('two Writes completed back to back are recorded in the order of the calls, the second after the first ends', async () => {
    const a = write('t1', 'a.ts', 'a\n');
    track(a);
    writeFileSync(join(root, 'a.ts'), 'a\n');
    await settled();
    const b = write('t2', 'b.ts', 'b\n');
    await next('write b.ts', b);
    track(b);
    writeFileSync(join(root, 'b.ts'), 'b\n');
    await settled();
    assert.deepEqual(seen, ['start t1', 'judged write b.ts'], 'the second waits for the first');
    release();
    await completions.close();
    assert.deepEqual(seen, ['start t1', 'judged write b.ts', 'end t1', 'start t2', 'end t2']);
  });

  it('the same id again (an agent without call ids names a call by its input): the earlier call is completed first, then the new one is watched', async () => {
    const a = write('same', 'a.ts', 'a\n');
    track(a);
    track(a); // Gemini CLI wrote the same content to the same file twice
    release();
    await settled();
    assert.deepEqual(seen, ['start same', 'end same'], 'the first completed when the second came');
    writeFileSync(join(root, 'a.ts'), 'a\n');
    await settled();
    assert.deepEqual(seen, ['start same', 'end same', 'start same', 'end same'], 'the second once the file holds it');
  });

  it('the same id again at its pre, after the first call wrote something else: the first is recorded before the second is judged', async () => {
    const a = write('same', 'a.ts', 'a\n');
    track(a);
    release();
    await settled();
    writeFileSync(join(root, 'a.ts'), 'not quite a\n'); // the tool wrote, but not what was asked: no watcher settles it
    await settled();
    assert.deepEqual(seen, []);
    await next('the same call again', a);
    assert.deepEqual(seen, ['start same', 'end same', 'judged the same call again']);
  });
});
