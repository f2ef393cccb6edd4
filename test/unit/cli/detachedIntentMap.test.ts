import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { rebuildFiles } from '../../../src/core/intentMap/backgroundRebuild';
import { INTENT_MAP_FILE } from '../../../src/core/intentMap/intentMapMarkdown';
import { createHarness, type Harness } from '../../support/governorHarness';
import { parseIntentMap } from '../../support/intentMapWorkspace';
import { hookFixture, runHook } from '../../support/runHook';
import { removeTree } from '../../support/removeTree';

/** Waits for a detached process to reach a state; the deadline only bounds a broken run, it asserts nothing about speed. */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 30_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await delay(50);
  }
}

/** The pids of `intent-map-job <root>` workers still alive (Linux /proc; elsewhere none are seen). */
async function workerProcesses(root: string): Promise<string[]> {
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name));
  const alive: string[] = [];
  for (const pid of pids) {
    const argv = (await readFile(join('/proc', pid, 'cmdline'), 'utf8').catch(() => '')).split('\0');
    if (argv.includes('intent-map-job') && argv.includes(root)) alive.push(pid);
  }
  return alive;
}

/** A Claude Code Write of `path` as its one-shot command hooks see it: PreToolUse, the tool writes, PostToolUse. */
function claudeWrite(root: string, path: string, id: string, phase: 'pre' | 'post'): string {
  const payload = JSON.parse(hookFixture('claude', `${phase}-write-in-scope`, root)) as Record<string, unknown> & { tool_input: Record<string, unknown> };
  return JSON.stringify({ ...payload, session_id: `session-${id}`, tool_use_id: `toolu_${id}`, tool_input: { ...payload.tool_input, file_path: join(root, path) } });
}

describe('intent map from one-shot hook processes (governor hook, headless)', function () {
  this.timeout(60_000); // `eventually` gives up first, saying what it waited for
  let h: Harness;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    h = await createHarness();
    await mkdir(join(h.root, 'src', 'auth'), { recursive: true });
    home = await mkdtemp(join(tmpdir(), 'ig-home-'));
    env = { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), INTENT_GOVERNOR_INTENT: 'auth-refactor' };
  });
  afterEach(async () => {
    // Let every worker finish before its workspace goes: a spare one may not have taken the lock yet, so wait
    // for the processes themselves (their command line names the workspace), then for the lock file.
    await eventually('the workers to exit', async () => ((await workerProcesses(h.root)).length ? undefined : true));
    await eventually('the worker to let go', async () => ((await readdir(join(home, 'intent-map')).catch(() => [])).some((n) => n.endsWith('.worker')) ? undefined : true));
    await h.dispose();
    await removeTree(home);
  });

  async function nativeWrite(path: string, id: string): Promise<void> {
    const pre = await runHook('claude', claudeWrite(h.root, path, id, 'pre'), [], env);
    assert.equal(pre.code, 0, pre.stderr);
    await writeFile(join(h.root, path), `export const v${id} = 1;\n`); // the native tool runs
    const post = await runHook('claude', claudeWrite(h.root, path, id, 'post'), [], env);
    assert.equal(post.code, 0, post.stderr);
  }

  it('a native Write recorded by a hook process reaches the map through a detached worker', async () => {
    await nativeWrite('src/auth/token.ts', 'one');
    const files = await eventually('the map to list the change', async () => {
      const section = parseIntentMap(await readFile(join(h.root, INTENT_MAP_FILE), 'utf8')).get('auth-refactor');
      return section?.files.length ? section.files : undefined;
    });
    assert.deepEqual(files.map((f) => [f.path, f.lines]), [['src/auth/token.ts', '1']]);
  });

  it('a burst of hook processes in parallel loses no change: the map ends with every file, and the worker has nothing left to do', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    await Promise.all(ids.map((id) => nativeWrite(`src/auth/file-${id}.ts`, id)));
    const files = await eventually('the map to list all six files', async () => {
      const section = parseIntentMap(await readFile(join(h.root, INTENT_MAP_FILE), 'utf8')).get('auth-refactor');
      return section?.files.length === ids.length ? section.files : undefined;
    });
    assert.deepEqual(files.map((f) => f.path), ids.map((id) => `src/auth/file-${id}.ts`));
    const state = rebuildFiles(home, h.root);
    await eventually('the last ask to be served', async () => ((await readFile(state.built, 'utf8')) === (await readFile(state.requested, 'utf8')) ? true : undefined));
  });
});
