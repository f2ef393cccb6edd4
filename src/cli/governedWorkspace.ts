import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { GOVERNED_MARKER } from '../core/paths/governedWorkspace';
import type { CliIO } from './cliCommand';

/** The nearest folder at or above `start` holding `.orchestration/`, as git finds `.git/`; undefined when none does. */
export async function findGovernedWorkspace(start: string): Promise<string | undefined> {
  let dir = resolve(start);
  for (;;) {
    if ((await stat(join(dir, GOVERNED_MARKER)).catch(() => undefined))?.isDirectory()) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * `--workspace DIR` when given (it must be a folder), else the nearest governed workspace above the current
 * directory; undefined after telling the user what was looked for and where.
 */
export async function governedWorkspaceFrom(value: unknown, io: CliIO, command: string): Promise<string | undefined> {
  if (typeof value === 'string') {
    const root = resolve(io.cwd, value);
    if ((await stat(root).catch(() => undefined))?.isDirectory()) return root;
    io.stderr(`governor ${command}: --workspace '${root}' is not a folder.\n`);
    return undefined;
  }
  const found = await findGovernedWorkspace(io.cwd);
  if (found) return found;
  io.stderr(
    `governor ${command}: no governed workspace here: looked for a ${GOVERNED_MARKER}/ folder in ${resolve(io.cwd)} and every folder above it. ` +
      `Run this inside a governed workspace, or pass --workspace DIR.\n`,
  );
  return undefined;
}
