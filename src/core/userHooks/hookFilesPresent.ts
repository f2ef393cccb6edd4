import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Whether any file that can declare user hooks exists for this door: a cheap check (a few stats) that lets a
 * one-shot hook process answer a read-only tool at once when no user hook could possibly run for it.
 */
export function userHookFilesPresent(root: string, home: string, door: string): boolean {
  const files = [join(home, 'hooks.json'), join(root, '.orchestration', 'hooks.json'), join(root, '.orchestration', 'hooks.yaml')];
  if (door !== 'claude-code') files.push(join(root, '.claude', 'settings.json'), join(root, '.claude', 'settings.local.json'));
  return files.some((file) => existsSync(file));
}
