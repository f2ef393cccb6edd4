import type { AvailableSandbox } from './sandboxAvailability';
import type { Confinement } from './confinement';
import { seatbeltProfile } from './seatbeltProfile';

export interface Invocation {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** A file the sandbox reads on descriptor 3 (its seccomp program): opened by whoever starts it. */
  fd3?: string;
}

/**
 * `/bin/sh -c command` inside the sandbox. bubblewrap applies its mounts in order, later ones winning: / read-only,
 * the caches writable, the workspace read-only again, the scope's roots writable, the protected paths (and an
 * empty read-only placeholder for each protected name not made yet) read-only, the governor's stores hidden under an
 * empty read-only tmpfs. A link or hardlink the command makes cannot reach further: the kernel checks the mount of
 * the real target (a hardlink across mounts is EXDEV). A new session: no TIOCSTI into the caller's terminal. With
 * `network: deny`, the shell starts through the write gate (writeGate.ts), since a mount cannot keep a FIFO from
 * being opened for writing.
 */
export function confinedInvocation(sandbox: AvailableSandbox, confinement: Confinement, command: string, cwd: string, env: NodeJS.ProcessEnv): Invocation {
  const tempEnv = { ...env, TMPDIR: confinement.tempDir, TMP: confinement.tempDir, TEMP: confinement.tempDir };
  if (sandbox.kind === 'sandbox-exec') {
    return { file: sandbox.path, args: ['-p', seatbeltProfile(confinement), '/bin/sh', '-c', command], env: tempEnv };
  }
  const args = [...bubblewrapMounts(confinement), '--chdir', cwd, '--', ...writeGated(confinement), '/bin/sh', '-c', command];
  return { file: sandbox.path, args, env: tempEnv, ...(confinement.unixDenied ? { fd3: confinement.unixDenied.filterFile } : {}) };
}

function bubblewrapMounts(confinement: Confinement): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // First, so the workspace and temp folder bound below show through: services' sockets and FIFOs do not.
  for (const path of confinement.unixDenied?.runtimeDirs ?? []) args.push('--tmpfs', path);
  for (const path of confinement.needs) args.push('--bind', path, path);
  args.push('--ro-bind', confinement.workspaceRoot, confinement.workspaceRoot);
  for (const path of [...confinement.writable, confinement.tempDir]) args.push('--bind', path, path);
  for (const path of confinement.readOnlyInside) args.push('--ro-bind', path, path);
  for (const { path, kind } of confinement.placeholders) args.push('--ro-bind', kind === 'dir' ? confinement.emptySource.dir : confinement.emptySource.file, path);
  for (const path of confinement.hidden) args.push('--tmpfs', path, '--remount-ro', path);
  if (confinement.unixDenied) args.push('--ro-bind', confinement.unixDenied.writeGate, gateInside(confinement));
  // A pid namespace: the command's processes die with it when the runner ends bwrap's group.
  args.push('--unshare-pid', '--new-session', '--die-with-parent');
  if (confinement.denyNetwork) args.push('--unshare-net');
  if (confinement.unixDenied) args.push('--seccomp', '3');
  return args;
}

/** The write gate inside the sandbox: in the command's own temp folder, bound read-only (the governor's home is hidden). */
function gateInside(confinement: Confinement): string {
  return `${confinement.tempDir}/.write-gate`;
}

/**
 * With `network: deny`, the command starts through the write gate: files can be opened for writing only where the
 * command may write (its writable folders, caches, temp folder) and in /dev (null, tty), so no FIFO elsewhere.
 */
function writeGated(confinement: Confinement): string[] {
  if (!confinement.unixDenied) return [];
  return [gateInside(confinement), ...confinement.writable, ...confinement.needs, confinement.tempDir, '/dev', '--'];
}
