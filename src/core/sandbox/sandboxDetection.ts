import { access, constants } from 'node:fs/promises';
import { runProcess } from '../process/processRunner';
import type { SandboxAvailability } from './sandboxAvailability';

const PROBE_TIMEOUT_MS = 10_000;
const LINUX_INSTALL = 'install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap) and allow unprivileged user namespaces';
const SEATBELT = '/usr/bin/sandbox-exec';

let detected: Promise<SandboxAvailability> | undefined;

/**
 * The sandbox of this machine, probed once per process: on Linux bwrap must actually start a namespace with /
 * read-only (a kernel or container that forbids user namespaces fails here, not in the first command).
 */
export function detectSandbox(): Promise<SandboxAvailability> {
  detected ??= probe(process.platform, process.env.PATH ?? '');
  return detected;
}

/** Exposed for tests and `governor doctor`: probes again, without the per-process cache. */
export async function probe(platform: NodeJS.Platform, searchPath: string): Promise<SandboxAvailability> {
  if (platform === 'linux') return probeBubblewrap(searchPath);
  if (platform === 'darwin') return probeSeatbelt();
  return { kind: 'unavailable', reason: `no sandbox is known for ${platform}`, install: 'run the agent in WSL 2 or a Linux container with bubblewrap' };
}

async function probeBubblewrap(searchPath: string): Promise<SandboxAvailability> {
  const path = await findOnPath('bwrap', searchPath);
  if (!path) return { kind: 'unavailable', reason: 'bubblewrap (bwrap) is not installed', install: LINUX_INSTALL };
  const started = await runProcess(path, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--die-with-parent', '--', '/bin/true'], quiet());
  if (started.exitCode !== 0) {
    const why = started.stderr.trim().split('\n')[0] || `exit ${started.exitCode ?? started.signal}`;
    return { kind: 'unavailable', reason: `bubblewrap cannot start a sandbox here (${why})`, install: 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap), or run where the container permits them' };
  }
  const version = await runProcess(path, ['--version'], quiet());
  return { kind: 'bubblewrap', path, ...(version.exitCode === 0 ? { version: version.stdout.trim() } : {}) };
}

async function probeSeatbelt(): Promise<SandboxAvailability> {
  const started = await runProcess(SEATBELT, ['-p', '(version 1)(allow default)', '/usr/bin/true'], quiet());
  if (started.exitCode === 0) return { kind: 'sandbox-exec', path: SEATBELT };
  const why = started.stderr.trim().split('\n')[0] || `exit ${started.exitCode ?? started.signal}`;
  return { kind: 'unavailable', reason: `sandbox-exec cannot start here (${why})`, install: 'sandbox-exec ships with macOS; check that /usr/bin/sandbox-exec exists and is not blocked by a management profile' };
}

async function findOnPath(name: string, searchPath: string): Promise<string | undefined> {
  // /usr/bin first: a bwrap earlier on PATH in the workspace must not decide what confines commands.
  for (const dir of ['/usr/bin', '/bin', ...searchPath.split(':').filter((d) => d.startsWith('/'))]) {
    const candidate = `${dir}/${name}`;
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function quiet() {
  return { cwd: '/', timeoutMs: PROBE_TIMEOUT_MS, maxOutputBytes: 64 * 1024, env: { PATH: '/usr/bin:/bin' } };
}
