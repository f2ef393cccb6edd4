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
