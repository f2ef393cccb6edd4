import { realpathSync } from 'node:fs';

/** Where `path` really is once links are followed; undefined when it cannot be resolved (gone, unreadable). */
export function physicalPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether two absolute paths name the same folder: the same text, or the same place once links are followed. */
export function sameFolder(a: string, b: string): boolean {
  if (a === b) return true;
  const real = physicalPath(a);
  return real !== undefined && real === physicalPath(b);
}
