import { realpath } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Folders under the home directory that ordinary commands write to work at all (package caches, tool caches),
 * writable in the sandbox when they exist. None of them steers the governor, git or an agent: configuration
 * folders (~/.config, ~/.ssh, ~/.gitconfig, agent settings) stay read-only.
 */
export const COMMAND_NEEDS: readonly string[] = ['.npm', '.cache', '.yarn', '.pnpm-store', '.cargo/registry', '.gradle/caches', '.m2/repository'];

/** The named folders that exist here, realpath'd (a link to elsewhere makes its target writable, so it must be seen). */
export async function commandNeedFolders(homeDir: string | undefined): Promise<string[]> {
  if (!homeDir) return [];
  const found: string[] = [];
  for (const rel of COMMAND_NEEDS) {
    const real = await realpath(join(homeDir, rel)).catch(() => undefined);
    // Only folders that stay under the home directory: a cache linked to / would open everything.
    if (real !== undefined && real.startsWith(`${homeDir}/`)) found.push(real);
  }
  return found;
}
