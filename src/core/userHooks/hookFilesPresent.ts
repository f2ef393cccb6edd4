import { existsSync } from 'node:fs';
import { hookLayerFiles } from './hookLayerFiles';

/**
 * Whether any file that can declare user hooks exists for this door, in any layer the runner reads: a cheap check (a
 * few stats) that lets a one-shot hook process answer a read-only tool at once when no user hook could run for it.
 */
export function userHookFilesPresent(root: string, home: string, door: string, env: NodeJS.ProcessEnv): boolean {
  return hookLayerFiles(root, { home, door, env }).some((file) => existsSync(file));
}
