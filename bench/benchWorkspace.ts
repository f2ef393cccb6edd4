import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** One IN_PROGRESS intent owning src/**, the plan every benchmark works under. */
export const BENCH_INTENTS = `active_intents:
  - id: bench
    name: Benchmark
    status: IN_PROGRESS
    owned_scope: ['src/**']
`;

/** Runs `body` in a temp workspace holding the bench intents and `files`, removed afterwards. */
export async function withBenchWorkspace<T>(files: Record<string, string>, body: (root: string) => Promise<T>): Promise<T> {
  const root = await mkdtemp(join(tmpdir(), 'ig-bench-'));
  try {
    for (const [rel, content] of Object.entries({ '.orchestration/active_intents.yaml': BENCH_INTENTS, ...files })) {
      await mkdir(dirname(join(root, rel)), { recursive: true });
      await writeFile(join(root, rel), content);
    }
    return await body(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * A real agent's workspace for the agent benchmarks: the bench intents, `src/`, a git repository, and in-scope writes
 * that land without a person (`destructive-only`): an agent's CLI cannot hold a call for one.
 */
export function seedAgentBenchWorkspace(ws: string): void {
  mkdirSync(join(ws, '.orchestration'), { recursive: true });
  mkdirSync(join(ws, 'src'), { recursive: true });
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  writeFileSync(join(ws, '.orchestration', 'active_intents.yaml'), BENCH_INTENTS);
  writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'intentGovernor.approval': 'destructive-only' }));
  spawnSync('git', ['init', '-q'], { cwd: ws });
}
