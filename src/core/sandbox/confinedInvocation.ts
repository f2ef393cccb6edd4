import type { AvailableSandbox } from './sandboxAvailability';
import type { Confinement } from './confinement';
import { seatbeltProfile } from './seatbeltProfile';

export interface Invocation {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * `/bin/sh -c command` inside the sandbox. bubblewrap: / read-only, then the writable places bound over it, then
 * the protected paths inside them bound read-only again (later mounts win); a link or hardlink the command makes
 * cannot reach further, because the kernel checks the mount of the real target (a hardlink across mounts is EXDEV).
 */
export function confinedInvocation(sandbox: AvailableSandbox, confinement: Confinement, command: string, cwd: string, env: NodeJS.ProcessEnv): Invocation {
  const tempEnv = { ...env, TMPDIR: confinement.tempDir, TMP: confinement.tempDir, TEMP: confinement.tempDir };
  if (sandbox.kind === 'sandbox-exec') {
    return { file: sandbox.path, args: ['-p', seatbeltProfile(confinement), '/bin/sh', '-c', command], env: tempEnv };
  }
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  for (const path of [...confinement.writable, confinement.tempDir]) args.push('--bind', path, path);
  for (const path of confinement.readOnlyInside) args.push('--ro-bind', path, path);
  // A pid namespace: the command's processes die with it when the runner ends bwrap's group.
  args.push('--unshare-pid', '--die-with-parent');
  if (confinement.denyNetwork) args.push('--unshare-net');
  args.push('--chdir', cwd, '--', '/bin/sh', '-c', command);
  return { file: sandbox.path, args, env: tempEnv };
}
