import { realpathSync } from 'node:fs';

function physical(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether two absolute paths name the same folder: the same text, or the same place once links are followed. */
export function sameFolder(a: string, b: string): boolean {
  if (a === b) return true;
  const real = physical(a);
  return real !== undefined && real === physical(b);
}
