import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NativeCall } from '../../../src/core/agents/common/nativeCall';
import { ResidentCompletions } from '../../../src/cli/residentCompletions';
import { RecordingLogger } from '../../support/governorHarness';

/** Which of a Claude Code session's next calls wait for the governor's own completion of a Write still being recorded. */
describe('ResidentCompletions: a call judged while an earlier Write is still being recorded', () => {
  let root: string;
  let completions: ResidentCompletions;
  /** `start <tool_use_id>` and `end <tool_use_id>` of each completion, `judged <what>` when a call was let through. */
  let seen: string[];
  let release: () => void;
  let held: Promise<void>;

  const write = (id: string, rel: string, content: string): { pre: Record<string, unknown>; calls: NativeCall[] } => {
    const path = join(root, rel);
    return { pre: { hook_event_name: 'PreToolUse', session_id: 'c1', tool_name: 'Write', tool_use_id: id, tool_input: { file_path: path, content } }, calls: [{ tool: 'write_file', input: { path, content } }] };
  };
  /** The agent's next call: `before` with it, noted once it may be judged. */
  const next = (what: string, call: { pre: Record<string, unknown>; calls: NativeCall[] }) => completions.before(call.pre, () => call.calls).then(() => void seen.push(`judged ${what}`));
  const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ig-resident-completions-'));
    seen = [];
    held = new Promise<void>((resolve) => (release = resolve));
    completions = new ResidentCompletions(async (post) => {
      seen.push(`start ${String(post.tool_use_id)}`);
      await held;
      seen.push(`end ${String(post.tool_use_id)}`);
    }, new RecordingLogger());
  });
  afterEach(async () => {
    release();
    await completions.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a Write of another file is judged at once; an Edit of the file being recorded, and a command, wait for it', async () => {
    const a = write('t1', 'a.ts', 'a\n');
    completions.track(a.pre, a.pre.tool_input as Record<string, unknown>, a.calls);
    writeFileSync(join(root, 'a.ts'), 'a\n');
    await settled();
    assert.deepEqual(seen, ['start t1'], 'the Write is being recorded once the file holds it');

    await next('write b.ts', write('t2', 'b.ts', 'b\n'));
    const path = join(root, 'A.ts');
    const edit = next('edit A.ts', { pre: { hook_event_name: 'PreToolUse', session_id: 'c1', tool_name: 'Edit', tool_use_id: 't3' }, calls: [{ tool: 'edit_file', input: { path }, edits: [] }] });
    const command = next('bash', { pre: { hook_event_name: 'PreToolUse', session_id: 'c1', tool_name: 'Bash', tool_use_id: 't4' }, calls: [{ tool: 'run_command', input: { command: 'cat a.ts' } }] });
    const post = completions.before({ hook_event_name: 'PostToolUse', session_id: 'c1', tool_name: 'Read', tool_use_id: 't5' }).then(() => void seen.push('judged a post'));
    await settled();
    assert.deepEqual(seen, ['start t1', 'judged write b.ts'], 'only the call on another file went ahead');
    release();
    await Promise.all([edit, command, post]);
    assert.deepEqual(seen.slice(0, 3), ['start t1', 'judged write b.ts', 'end t1']);
    assert.deepEqual(new Set(seen.slice(3)), new Set(['judged edit A.ts', 'judged bash', 'judged a post']));
  });

  it('two Writes completed back to back are recorded in the order of the calls, the second after the first ends', async () => {
    const a = write('t1', 'a.ts', 'a\n');
    completions.track(a.pre, a.pre.tool_input as Record<string, unknown>, a.calls);
    writeFileSync(join(root, 'a.ts'), 'a\n');
    await settled();
    const b = write('t2', 'b.ts', 'b\n');
    await next('write b.ts', b);
    completions.track(b.pre, b.pre.tool_input as Record<string, unknown>, b.calls);
    writeFileSync(join(root, 'b.ts'), 'b\n');
    await settled();
    assert.deepEqual(seen, ['start t1', 'judged write b.ts'], 'the second waits for the first');
    release();
    await completions.close();
    assert.deepEqual(seen, ['start t1', 'judged write b.ts', 'end t1', 'start t2', 'end t2']);
  });
});
