import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** What marks a governed workspace: the folder the intents file, the trace and the signers live in. */
export const GOVERNED_MARKER = '.orchestration';

/** The nearest folder at or above `start` holding `.orchestration/`, as git finds `.git/`; synchronous for the hook's hot path. */
export function findGovernedWorkspaceSync(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, GOVERNED_MARKER))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
