import { homedir } from 'node:os';
import { join } from 'node:path';
import { managedSettingsPath } from '../managed/managedSettings';
import { governorHome } from '../paths/governorHome';
import type { HookLayer } from './hookSpec';

/**
 * Where each layer of user hooks lives, and nothing that reads them: the one list the runner, the watchers and a
 * one-shot hook's "could any hook run here?" check share (the hook bundle takes it without the files' parsers).
 */

/** The person's own hooks, in the governor's home (`~/.intent-governor/hooks.json`). */
export const USER_HOOKS_FILE_NAME = 'hooks.json';
/** The project's hooks, committed with the repository. */
export const PROJECT_HOOKS_FILE = '.orchestration/hooks.json';
/** Claude Code's settings; their hooks guard the other agents too (Claude Code runs them itself). */
export const CLAUDE_SETTINGS_FILES = ['.claude/settings.json', '.claude/settings.local.json'] as const;
/** The person's own Claude Code settings, under their HOME. */
export const CLAUDE_USER_SETTINGS_FILE = '.claude/settings.json';
/** The door of Claude Code's own hooks: its settings files are never run a second time for it. */
export const CLAUDE_CODE_DOOR = 'claude-code';

/** Seed 003's vendor-neutral hooks file, per user (`~/.agents/hooks.toml`) and per project (`.agents/hooks.toml`). */
export const AGENTS_HOOKS_FILE = '.agents/hooks.toml';
/** The first user-hook format, still read so nobody's hooks silently stop. */
export const LEGACY_HOOKS_FILE = '.orchestration/hooks.yaml';

export interface HookLayerFile {
  layer: HookLayer;
  path: string;
  /** The file as a person names it, in messages and listings. */
  file: string;
  format: 'json' | 'yaml' | 'toml';
  strict: boolean;
  /** What to put there instead when the file is a FIFO, a device or too big. */
  replacement: string;
}

/** The files every layer reads for one door, whether they exist or not (the managed file among them). */
export function hookLayerFiles(root: string, options: { home: string; door: string; env?: NodeJS.ProcessEnv }): string[] {
  return [...hookLayerTable(root, options).map((layer) => layer.path), managedSettingsPath(options.env ?? process.env)];
}

/** The person's home directory (HOME, as the agents read it), where ~/.claude and ~/.agents live. */
function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || homedir();
}

/** Every layer's file for one door, in the order their hooks run. */
export function hookLayerTable(root: string, options: { home: string; door: string; env?: NodeJS.ProcessEnv }): HookLayerFile[] {
  const userPath = join(options.home, USER_HOOKS_FILE_NAME);
  const home = userHome(options.env ?? process.env);
  const hooksJson = `a JSON file of hooks ({"hooks": {"PreToolUse": [...]}})`;
  const toml = 'a TOML file of [[hooks]] tables';
  const claudeUser = join(home, CLAUDE_USER_SETTINGS_FILE);
  const list: HookLayerFile[] = [{ layer: 'user', path: userPath, file: userFileName(options.home, userPath), format: 'json', strict: true, replacement: hooksJson }];
  if (options.door !== CLAUDE_CODE_DOOR) list.push({ layer: 'claude-user', path: claudeUser, file: `~/${CLAUDE_USER_SETTINGS_FILE}`, format: 'json', strict: false, replacement: "Claude Code's JSON settings file" });
  list.push(
    { layer: 'agents-user', path: join(home, AGENTS_HOOKS_FILE), file: `~/${AGENTS_HOOKS_FILE}`, format: 'toml', strict: true, replacement: toml },
    { layer: 'project', path: join(root, PROJECT_HOOKS_FILE), file: PROJECT_HOOKS_FILE, format: 'json', strict: true, replacement: hooksJson },
    { layer: 'legacy', path: join(root, LEGACY_HOOKS_FILE), file: LEGACY_HOOKS_FILE, format: 'yaml', strict: true, replacement: 'a YAML file of hooks' },
    { layer: 'agents-project', path: join(root, AGENTS_HOOKS_FILE), file: AGENTS_HOOKS_FILE, format: 'toml', strict: true, replacement: toml },
  );
  if (options.door !== CLAUDE_CODE_DOOR) {
    for (const file of CLAUDE_SETTINGS_FILES) {
      list.push({ layer: 'claude', path: join(root, file), file, format: 'json', strict: false, replacement: "Claude Code's JSON settings file" });
    }
  }
  return list;
}

/** `~/.intent-governor/hooks.json` when the home is the default one, else the path itself. */
function userFileName(home: string, path: string): string {
  return home === governorHome({ HOME: process.env.HOME }) ? `~/.intent-governor/${USER_HOOKS_FILE_NAME}` : path;
}
