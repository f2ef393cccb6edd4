import { mkdir, mkdtemp, open, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runShellCommand, type RunOptions } from '../src/core/process/processRunner';
import { confinedInvocation } from '../src/core/sandbox/confinedInvocation';
import { planConfinement, releaseConfinement, runConfined } from '../src/core/sandbox/confinedRun';
import { removePlaceholders } from '../src/core/sandbox/placeholders';
import { describeSandbox, isAvailable } from '../src/core/sandbox/sandboxAvailability';
import { detectSandbox } from '../src/core/sandbox/sandboxDetection';
import { runProcess } from '../src/core/process/processRunner';
import { removeTree } from '../test/support/removeTree';
import { elapsedMs, percentile, type BenchSuite, type BenchTable } from './table';

const RUNS = 60;
const WARMUP = 5;
/** A scope folder of a realistic size: the snapshot stats every file in it before and after the command. */
const SCOPE_FILES = 200;

async function timed(run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = process.hrtime.bigint();
    await run();
    samples.push(elapsedMs(start));
  }
  return samples;
}

/**
 * What confining a command costs, per command at p50 and p95: `true` run plain, inside bwrap alone, and through
 * runConfined (writable roots, snapshot of a 200-file scope before and after, private temp folder, bwrap).
 * The ratio and the added milliseconds are against the plain run; the target is ≤ 10 ms added.
 */
export const sandboxBench: BenchSuite = {
  name: 'sandbox',
  async run(): Promise<BenchTable[]> {
    const sandbox = await detectSandbox();
    if (!isAvailable(sandbox)) return [{ title: 'sandbox: cost per command', columns: ['skipped'], rows: [[describeSandbox(sandbox)]] }];
    const root = await realpath(await mkdtemp(join(tmpdir(), 'ig-bench-sandbox-')));
    try {
      await mkdir(join(root, 'src/auth'), { recursive: true });
      for (let i = 0; i < SCOPE_FILES; i += 1) await writeFile(join(root, 'src/auth', `f${i}.ts`), `export const v${i} = ${i};\n`);
      const options: RunOptions = { cwd: root, timeoutMs: 10_000, maxOutputBytes: 1 << 20, env: { PATH: process.env.PATH } };
      const plain = await timed(() => runShellCommand('true', options));
      const home = join(root, 'home');
      // The mounts of the previous mechanism: the scope's folder writable, nothing more.
      const previous = { file: sandbox.path, args: ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', join(root, 'src/auth'), join(root, 'src/auth'), '--unshare-pid', '--die-with-parent', '--', '/bin/sh', '-c', 'true'] };
      const bwrapPrevious = await timed(() => runProcess(previous.file, previous.args, options));
      const planned = await planConfinement({ workspaceRoot: root, ownedScope: ['src/auth/**'], denyNetwork: false, governorHome: home }, 'ig-bench-tmp-');
      const now = confinedInvocation(sandbox, planned.confinement, 'true', root, options.env);
      const bwrapNow = await timed(async () => {
        await runProcess(now.file, now.args, options);
        removePlaceholders(planned.placeholders);
      });
      await releaseConfinement(planned);
      const confined = await timed(() => runConfined(sandbox, { command: 'true', workspaceRoot: root, governorHome: home, ownedScope: ['src/auth/**'], denyNetwork: false, caseInsensitive: false, run: options }));
      // The whole workspace writable: every protected name gets a placeholder at its root.
      const wide = await planConfinement({ workspaceRoot: root, ownedScope: ['**'], denyNetwork: false, governorHome: home }, 'ig-bench-tmp-');
      const wideCount = wide.confinement.placeholders.length;
      const wideNow = confinedInvocation(sandbox, wide.confinement, 'true', root, options.env);
      const bwrapWide = await timed(async () => {
        await runProcess(wideNow.file, wideNow.args, options);
        removePlaceholders(wide.placeholders);
      });
      await releaseConfinement(wide);
      // network: deny, through the write gate and, for the same mounts and filter, with the gate's exec taken out.
      const denied = await planConfinement({ workspaceRoot: root, ownedScope: ['src/auth/**'], denyNetwork: true, governorHome: home }, 'ig-bench-tmp-');
      const deniedNow = confinedInvocation(sandbox, denied.confinement, 'true', root, options.env);
      const ungated = withoutWriteGate(deniedNow.args);
      const deniedRun = (args: string[]) => async () => {
        // As runConfined does: bubblewrap reads the filter from descriptor 3, opened for each run.
        const filter = await open(deniedNow.fd3 as string, 'r');
        const result = await runProcess(deniedNow.file, args, { ...options, extraFds: [filter.fd] }).finally(() => filter.close());
        if (result.exitCode !== 0) throw new Error(`the network: deny run failed: ${result.stderr}`);
        removePlaceholders(denied.placeholders);
      };
      const bwrapDeniedUngated = await timed(deniedRun(ungated));
      const bwrapDenied = await timed(deniedRun(deniedNow.args));
      await releaseConfinement(denied);
      const base = percentile(plain, 50);
      const row = (name: string, samples: number[]) => {
        const p50 = percentile(samples, 50);
        return [name, p50, percentile(samples, 95), p50 / base, p50 - base];
      };
      return [
        {
          title: `sandbox: cost per command (${sandbox.kind}, ${RUNS} runs of \`true\`, scope of ${SCOPE_FILES} files)`,
          columns: ['run', 'p50 ms', 'p95 ms', 'ratio to plain (p50)', 'added ms (p50)'],
          rows: [
            row('plain /bin/sh -c', plain),
            row(`${sandbox.kind} alone, the scope's folder writable (previous mounts)`, bwrapPrevious),
            row(`${sandbox.kind} alone, with placeholders, hidden stores, new session`, bwrapNow),
            row(`${sandbox.kind} alone, the same with the scope "**" (${wideCount} placeholders at the root)`, bwrapWide),
            row('run_command confined (roots, placeholders, snapshots and after-check, temp, sandbox)', confined),
            row(`${sandbox.kind} alone, network: deny (seccomp filter, empty runtime folders), without the write gate`, bwrapDeniedUngated),
            row(`${sandbox.kind} alone, network: deny through the write gate (Landlock)`, bwrapDenied),
          ],
          notes: [
            'Target: the confined run adds ≤ 10 ms at p50 over the plain run.',
            "The write gate's own cost is the last row over the one before it.",
            `The mechanism's own cost is the third row over the second: ${planned.confinement.placeholders.length} placeholders and ${planned.confinement.hidden.length} hidden stores here.`,
          ],
        },
      ];
    } finally {
      await removeTree(root);
    }
  },
};

/** The same bubblewrap arguments with the write gate's bind and exec taken out, to measure what the gate adds. */
function withoutWriteGate(args: string[]): string[] {
  const bind = args.findIndex((arg, i) => arg === '--ro-bind' && args[i + 2]?.endsWith('/.write-gate'));
  const gate = args[bind + 2];
  const out = args.filter((_, i) => i < bind || i > bind + 2);
  const start = out.indexOf(gate);
  return [...out.slice(0, start), ...out.slice(out.indexOf('--', start) + 1)];
}
