import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linesAddedSince } from '../../../../src/core/trace/branchBase';
import { FileAnchorStore } from '../../../../src/core/trace/anchorStore';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { removeTree } from '../../../support/removeTree';

/** What a branch added since its merge base with a ref, in real git: the lines the inspector's "since" view keeps. */
describe('linesAddedSince: the records a branch added since its merge base with a ref', () => {
  let dir: string;
  let root: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir } });

  async function record(n: number, decision: 'allow' | 'deny' = 'allow'): Promise<void> {
    const sink = new JsonlTraceSink({ workspaceRoot: root, toolVersion: 'test', anchors: new FileAnchorStore(root, join(dir, 'anchors')), fsync: 'never' });
    const call = { timestamp: new Date(Date.UTC(2026, 10, n)).toISOString(), invocation_id: `i${n}`, session_id: 's', agent: { name: 'bob-agent' }, intent_id: 'app', tool: 'write_file' };
    if (decision === 'deny') await sink.recordGovernance({ ...call, decision, code: 'SCOPE_VIOLATION', message: 'outside the scope', paths: ['docs/x.md'] });
    else await sink.recordMutation({ ...call, mutation_class: 'write', decision, files: [{ path: `src/f${n}.ts`, after: `export const v = ${n};\n` }] });
    await sink.close();
  }

  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'ig-since-')));
    root = join(dir, 'ws');
    execFileSync('git', ['init', '-q', '-b', 'main', root]);
    git('config', 'user.name', 'bob');
    git('config', 'user.email', 'bob@example.test');
    await writeFile(join(root, 'README.md'), 'x\n');
    await record(1);
    await record(2);
    git('add', '-A');
    git('commit', '-qm', 'base');
    git('checkout', '-qb', 'feature');
  });
  afterEach(() => removeTree(dir));

  it('keeps only the lines the branch added to each log, committed or not, and says what it compared with', async () => {
    await record(3);
    await record(4, 'deny');
    git('add', '-A');
    git('commit', '-qm', 'feature work');
    await record(5); // not committed yet: the working file is what the person sees
    const since = await linesAddedSince(root, 'main');
    assert.ok(typeof since !== 'string', String(since));
    assert.deepEqual([...since.trace], [3, 4]);
    assert.deepEqual([...since.governance], [1]);
    assert.match(since.said, /^the merge base of main and HEAD \([0-9a-f]{12}\)$/);
    assert.equal((await readFile(join(root, '.orchestration/agent_trace.jsonl'), 'utf8')).trim().split('\n').length, 4);
  });

  it('after main moved on and was merged back, still only the branch\'s own lines', async () => {
    await record(3);
    git('add', '-A');
    git('commit', '-qm', 'feature');
    git('checkout', '-q', 'main');
    await record(6);
    git('add', '-A');
    git('commit', '-qm', 'main moves');
    git('checkout', '-q', 'feature');
    git('merge', '-q', '--no-edit', 'main');
    const since = await linesAddedSince(root, 'main');
    assert.ok(typeof since !== 'string', String(since));
    const lines = (await readFile(join(root, '.orchestration/agent_trace.jsonl'), 'utf8')).trim().split('\n');
    assert.deepEqual([...since.trace].map((n) => (JSON.parse(lines[n - 1]) as { files: { path: string }[] }).files[0].path), ['src/f3.ts']);
  });

  it('says why when the ref is unknown, shares no history, or looks like an option (never handed to git)', async () => {
    assert.match(String(await linesAddedSince(root, 'no-such-branch')), /no-such-branch is not a commit git knows here/);
    assert.match(String(await linesAddedSince(root, '--output=/tmp/x')), /is not a ref: .* never starts with '-'/);
    git('checkout', '-q', '--orphan', 'other');
    git('commit', '-qm', 'unrelated', '--allow-empty');
    assert.match(String(await linesAddedSince(root, 'main')), /main shares no history with HEAD/);
  });
});
