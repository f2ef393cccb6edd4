import { basename } from 'node:path';
import { fileSignature } from '../io/fileSignature';
import type { HookSpec } from './hookSpec';
import type { HookFiring } from './userHookRunner';
import { watcherFiring } from './watcherFiring';

/** What happened to a watched file, in Claude Code's words. */
export type FileChangeKind = 'change' | 'add' | 'unlink';

// A glob or regular-expression character, or a path separator: such a segment names no one file to watch.
const NOT_A_FILE_NAME = /[*?[\]{}()^$\\/]/u;

/**
 * The files FileChanged matchers name, as Claude Code reads them for its watch list: each matcher split on `|`,
 * every segment a literal file name in the working directory (`.envrc|.env`). A segment that is a pattern
 * (`^\.env`, `*`) names no file and adds nothing; an omitted matcher adds nothing either (it matches every
 * watched file, from watchPaths).
 */
export function fileChangedNames(hooks: readonly Pick<HookSpec, 'event' | 'matcher'>[]): string[] {
  const names = new Set<string>();
  for (const hook of hooks) {
    if (hook.event !== 'FileChanged' || !hook.matcher) continue;
    for (const segment of hook.matcher.split('|').map((s) => s.trim())) {
      if (segment !== '' && segment !== '.' && segment !== '..' && !NOT_A_FILE_NAME.test(segment)) names.add(segment);
    }
  }
  return [...names];
}

/**
 * Each change of a watched file told once, in Claude Code's words, from what the file is now against what it was
 * when last seen: a watcher that reports one save twice (create, then change) tells it once, and an editor's atomic
 * save (a new file renamed over the old one, reported as a create) is a `change` of a file that was there.
 */
export class WatchedFiles {
  private readonly seen = new Map<string, string>();

  /** Remembers the file as it is now (when its watch starts). */
  know(path: string): void {
    this.seen.set(path, fileSignature(path));
  }

  /** What happened to the file since it was last seen; undefined when nothing did. `reported` serves a file never seen. */
  changed(path: string, reported: FileChangeKind): FileChangeKind | undefined {
    const before = this.seen.get(path);
    const now = fileSignature(path);
    this.seen.set(path, now);
    if (now === before) return undefined;
    if (now === '-') return 'unlink';
    if (before === undefined) return reported === 'unlink' ? 'change' : reported;
    return before === '-' ? 'add' : 'change';
  }
}

/** FileChanged as Claude Code fires it: the file's absolute path and what happened; the matcher sees its basename. */
export function fileChangedFiring(filePath: string, kind: FileChangeKind, root: string, watcher: string): HookFiring {
  return watcherFiring(watcher, 'FileChanged', root, { file_path: filePath, event: kind }, basename(filePath));
}

/**
 * CwdChanged at a watcher: `old_cwd` and `new_cwd` (Claude Code's fields) are the first workspace folder before and
 * after; which folders came and went is added, since in VS Code a change of the folders is what moves.
 */
export function cwdChangedFiring(change: { oldCwd: string; newCwd: string; added: readonly string[]; removed: readonly string[] }, watcher: string): HookFiring {
  return watcherFiring(watcher, 'CwdChanged', change.newCwd, { old_cwd: change.oldCwd, new_cwd: change.newCwd, added_folders: [...change.added], removed_folders: [...change.removed] });
}
