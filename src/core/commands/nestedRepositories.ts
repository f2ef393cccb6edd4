import { lstatSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalizePath } from '../paths/canonicalPath';

// What makes git stop looking further up: a `.git` (folder or gitfile), or a folder that is itself a bare repository.
const MARKERS = ['.git', 'HEAD'];

/**
 * Why git, started in each of `dirs` (relative to the command's cwd), might use a repository other than the
 * workspace's own: git walks up from its starting folder and obeys the configuration of the first repository it
 * meets (core.fsmonitor, core.pager, hooks run commands), so a `.git` or a bare-looking folder the agent wrote
 * anywhere between that folder and the workspace root hands it control. Empty when every start reaches the root.
 */
export async function foreignRepositories(root: string, cwdRel: string, dirs: readonly string[], caseInsensitive: boolean): Promise<string[]> {
  const problems: string[] = [];
  for (const dir of dirs) {
    const joined = path.isAbsolute(dir) ? dir : path.posix.join(cwdRel || '.', dir);
    const lexical = path.isAbsolute(joined) ? path.relative(root, joined).split(path.sep).join('/') : path.posix.normalize(joined);
    if (lexical === '' || lexical === '.') continue; // the workspace root: its own repository
    if (lexical === '..' || lexical.startsWith('../') || path.isAbsolute(lexical)) {
      problems.push(`git would look for its repository in ${dir}, outside the workspace, and obey whatever configuration it finds there`);
      continue;
    }
    const real = await canonicalizePath(root, lexical, 'read', { caseInsensitive });
    if (!real.ok) {
      problems.push(`cannot tell which repository git would use from ${dir} (${real.error.message})`);
      continue;
    }
    for (let level = real.value.rel; level !== '.' && level !== ''; level = path.posix.dirname(level)) {
      const marker = MARKERS.find((name) => exists(path.join(root, level, name)));
      if (marker) {
        problems.push(`git would use the repository at ${level} (it holds ${marker}), not the workspace's own; a repository written there can make git run any command`);
        break;
      }
    }
  }
  return problems;
}

function exists(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}
