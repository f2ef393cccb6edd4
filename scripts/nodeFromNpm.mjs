// A Node.js from the npm registry (node-linux-<arch>@<major>: the official build, bin/node and include/node), for a
// machine that reaches only npm and Debian. Used for the VS Code runtime's Node and for the supported floor in CI.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runLogged } from './loggedRun.mjs';

/** What `node --version` prints for `binary`, or undefined when it does not run. */
export function nodeVersionOf(binary) {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Node `major` unpacked into `dir` (bin/node), from npm unless one of that major is there already. Returns its
 * version. npm's and tar's output go to `logPath`; `step` gets one line per step.
 */
export function ensureNodeFromNpm({ major, dir, logPath, step }) {
  const node = join(dir, 'bin', 'node');
  const existing = nodeVersionOf(node);
  if (existing?.startsWith(`v${major}.`)) {
    step(`node ${existing} present in ${dir}`);
    return existing;
  }
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    throw new Error(`no Node.js ${major} package on npm for ${process.platform}-${process.arch}: install Node.js ${major} and put it first on PATH`);
  }
  const spec = `node-linux-${process.arch}@${major}`;
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  step(`npm pack ${spec}`);
  const logFd = openSync(logPath, 'a');
  let packed;
  try {
    packed = JSON.parse(execFileSync('npm', ['pack', spec, '--json', '--pack-destination', staging], { encoding: 'utf8', stdio: ['ignore', 'pipe', logFd] }));
  } finally {
    closeSync(logFd);
  }
  const unpacked = join(staging, 'node');
  mkdirSync(unpacked);
  step(`unpack ${packed[0].filename}`);
  runLogged(logPath, 'tar', ['xzf', join(staging, packed[0].filename), '-C', unpacked, '--strip-components=1']);
  // Renamed last, so an interrupted run never leaves a half-unpacked folder that looks ready.
  rmSync(dir, { recursive: true, force: true });
  renameSync(unpacked, dir);
  rmSync(staging, { recursive: true, force: true });
  const installed = nodeVersionOf(node);
  if (!installed?.startsWith(`v${major}.`)) throw new Error(`unpacked node reports ${installed ?? 'nothing'}, expected v${major}.x`);
  step(`node ${installed} ready`);
  return installed;
}
