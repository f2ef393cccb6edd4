import { chmod, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errnoOf } from '../../ioError';
import { governorHome } from '../../paths/governorHome';

/**
 * The hook launcher: one small sh script per user, `<governor home>/bin/governor-hook`, that runs this machine's
 * `dist/hook.js`. Hook files committed to a repository name the launcher (see hookCommand.ts), never a path on one
 * machine, so a teammate's clone runs the teammate's own installation. `governor hooks install` writes it, and the
 * extension on every start (its folder changes with each version); either rewrites it when it points elsewhere.
 */

/** Where the launcher lives under the governor's home. */
export const LAUNCHER_IN_HOME = join('bin', 'governor-hook');


/** The first lines of every launcher we write. */
const MARKER = '# intent-governor: hook launcher';

export function hookLauncherPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(governorHome(env), LAUNCHER_IN_HOME);
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/gu, "'\\''")}'`;
}

/**
 * The launcher's text for the hook bundle at `hookScript` (absolute). It stays as small as it can (it runs on every
 * tool call): `exec` hands the process, stdin and all, to node. A bundle that is gone or a node that is not on PATH
 * is exit 127 with the reason on stderr: not 2, which some agents take as a whole answer, so the wrapping in every
 * installed command prints that agent's full blocking answer (Cursor's and Copilot CLI's JSON, Cline's cancel).
 */
export function hookLauncherText(hookScript: string): string {
  return `#!/bin/sh
${MARKER}, written by \`governor hooks install\` and by the Intent Governor extension when it starts.
# Agents' hook files name this script instead of a path on one machine. Rewritten whenever it points elsewhere.
hook=${shellQuote(hookScript)}
if [ ! -f "$hook" ]; then
  echo "Intent Governor blocked this call: its hook launcher ($0) points at $hook, which is not there any more. Start VS Code with the Intent Governor extension (it rewrites the launcher) or run governor hooks install." >&2
  exit 127
fi
command -v node >/dev/null 2>&1 || { echo "Intent Governor blocked this call: node is not on the PATH its hook runs with ($PATH), so the hook cannot start. Install Node.js 20 or later, or put it on that PATH." >&2; exit 127; }
exec node "$hook" "$@"
`;
}

/** The file system the launcher is written through (a port: tests give their own). */
export interface LauncherFiles {
  /** The file's text and permission bits; undefined when there is no such file. */
  read(file: string): Promise<{ text: string; mode: number } | undefined>;
  /** Replaces `file` whole (its folder created), readable and executable by everyone, writable by its owner. */
  write(file: string, text: string): Promise<void>;
}

export const nodeLauncherFiles: LauncherFiles = {
  async read(file) {
    try {
      const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
      return { text, mode: info.mode & 0o777 };
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined;
      throw error;
    }
  },
  async write(file, text) {
    await mkdir(dirname(file), { recursive: true });
    // A temp file and a rename: an agent's hook running right now reads the old launcher or the new one, never half.
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await writeFile(temp, text, { mode: 0o755 });
      await chmod(temp, 0o755); // the umask may have taken bits away
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  },
};

export interface LauncherChange {
  file: string;
  action: 'written' | 'unchanged';
}

/** Writes the launcher for `hookScript` unless it is already exactly that, and executable. */
export async function ensureHookLauncher(env: NodeJS.ProcessEnv, hookScript: string, files: LauncherFiles = nodeLauncherFiles): Promise<LauncherChange> {
  const file = hookLauncherPath(env);
  const text = hookLauncherText(hookScript);
  const current = await files.read(file);
  if (current?.text === text && current.mode === 0o755) return { file, action: 'unchanged' };
  await files.write(file, text);
  return { file, action: 'written' };
}
