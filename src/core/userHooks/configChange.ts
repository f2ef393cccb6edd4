import { isAbsolute, join, relative } from 'node:path';
import { fileSignature } from '../io/fileSignature';
import type { Logger } from '../logger';
import { managedSettingsPath } from '../managed/managedSettings';
import { hookLayerFiles } from './hookLayerFiles';
import type { HookFiring, UserHookRunner } from './userHookRunner';
import { watcherFiring } from './watcherFiring';

/** Claude Code's `source` of a ConfigChange (its hooks reference): which kind of settings file changed. */
export type ConfigChangeSource = 'user_settings' | 'project_settings' | 'local_settings' | 'policy_settings';

/** One hooks file that changed on disk (written, created or removed). */
export interface HookFileChange {
  file: string;
  source: ConfigChangeSource;
}

/**
 * The door a watcher fires ConfigChange at: not an agent's, so every layer is read (Claude Code's settings too, as
 * for every door but Claude Code's).
 */
const WATCHED_FILES_DOOR = 'hook-files';

/**
 * Our files in Claude Code's words: the administrator's file is policy_settings, `.claude/settings.local.json`
 * local_settings, every other file in the workspace project_settings, the person's own files user_settings.
 */
export function configChangeSource(root: string, file: string, env: NodeJS.ProcessEnv = process.env): ConfigChangeSource {
  if (file === managedSettingsPath(env)) return 'policy_settings';
  if (file === join(root, '.claude', 'settings.local.json')) return 'local_settings';
  const inside = relative(root, file);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? 'project_settings' : 'user_settings';
}

/**
 * The hooks files this governor reads, compared by their stat signature: each change is reported once, at the
 * first look after it. The files as they were when it was made are the baseline (no change at start).
 */
export class HookFileChanges {
  private seen: Map<string, string>;

  constructor(
    private readonly root: string,
    private readonly home: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.seen = this.now();
  }

  /** The files that changed since the last look (or since the start), each once. */
  take(): HookFileChange[] {
    const now = this.now();
    const changed = [...now].filter(([file, signature]) => this.seen.get(file) !== signature).map(([file]) => ({ file, source: configChangeSource(this.root, file, this.env) }));
    this.seen = now;
    return changed;
  }

  private now(): Map<string, string> {
    const files = hookLayerFiles(this.root, { home: this.home, door: WATCHED_FILES_DOOR, env: this.env });
    return new Map(files.map((file) => [file, fileSignature(file)]));
  }
}

/** ConfigChange as Claude Code fires it: `source` (what the matcher is compared with) and the file's absolute path. */
export function configChangeFiring(change: HookFileChange, root: string, watcher: string): HookFiring {
  return watcherFiring(watcher, 'ConfigChange', root, { source: change.source, file_path: change.file }, change.source);
}

/**
 * Fires ConfigChange once per changed file. The change is already on disk when a watcher sees it, so a hook's
 * block cannot undo it (Claude Code would keep the old settings in memory; here the new hooks apply): it is logged.
 */
export async function fireConfigChanges(runner: Pick<UserHookRunner, 'fire'>, changes: readonly HookFileChange[], root: string, watcher: string, logger: Logger): Promise<void> {
  for (const change of changes) {
    try {
      const verdict = await runner.fire(configChangeFiring(change, root, watcher));
      if (verdict.decision === 'deny') logger.warn(`a ConfigChange hook (${verdict.decidedBy ?? 'a hook'}) blocked the change of ${change.file}: ${verdict.reason ?? ''}; the file is already changed on disk, so its hooks apply (a block cannot undo it)`);
    } catch (error) {
      logger.error(`ConfigChange hooks: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
