import { join } from 'node:path';
import { describeProblem, readRegularFileSync } from '../io/regularFile';
import { governorHome } from '../paths/governorHome';
import { parseHooksConfig } from './hooksConfig';
import type { HookLayer, HookSpec } from './hookSpec';
import { LEGACY_HOOKS_FILE, parseLegacyHooksYaml } from './legacyHooksYaml';

/** The person's own hooks, in the governor's home (`~/.intent-governor/hooks.json`). */
export const USER_HOOKS_FILE_NAME = 'hooks.json';
/** The project's hooks, committed with the repository. */
export const PROJECT_HOOKS_FILE = '.orchestration/hooks.json';
/** Claude Code's settings; their hooks guard the other agents too (Claude Code runs them itself). */
export const CLAUDE_SETTINGS_FILES = ['.claude/settings.json', '.claude/settings.local.json'] as const;
/** The door of Claude Code's own hooks: its settings files are never run a second time for it. */
export const CLAUDE_CODE_DOOR = 'claude-code';

/** A policy file, not a program: anything bigger is a mistake, and it is read on every governed call. */
export const MAX_HOOKS_FILE_BYTES = 256 * 1024;

export interface LoadedHooks {
  /** In layer order (user, project, legacy, Claude's): it matters, since a later `updatedInput` wins. */
  hooks: HookSpec[];
  /** Files that exist but cannot be read or understood; the runner fails closed on decision events. */
  problems: { file: string; message: string }[];
  /** Things a person may want to know (a skipped Claude-only hook, the old file's migration hint). */
  notes: string[];
  /** Entries skipped because they are wrong (an unknown event, a broken observation hook); the rest still holds. */
  warnings: string[];
}

type Parsed = { ok: true; hooks: HookSpec[]; notes: string[]; warnings?: string[] } | { ok: false; message: string };

interface Layer {
  layer: HookLayer;
  path: string;
  /** The file as a person names it, in messages and listings. */
  file: string;
  format: 'json' | 'yaml';
  strict: boolean;
  /** What to put there instead when the file is a FIFO, a device or too big. */
  replacement: string;
}

/**
 * Every layer's hooks for one workspace, as one door sees them. Synchronous and bounded: each file is read with
 * the regular-file reader (a FIFO or device there is a problem at once, never a hang), capped; a missing file
 * is no hooks; a broken one is a problem and the other layers still load.
 */
export function loadHookLayers(root: string, options: { home: string; door: string }): LoadedHooks {
  const loaded: LoadedHooks = { hooks: [], problems: [], notes: [], warnings: [] };
  for (const layer of layers(root, options)) {
    const read = readRegularFileSync(layer.path, { maxBytes: MAX_HOOKS_FILE_BYTES });
    if (!read.ok && read.problem.kind === 'missing') continue;
    if (!read.ok) {
      loaded.problems.push({ file: layer.file, message: `${describeProblem('the file', read.problem)}; replace it with ${layer.replacement}` });
      continue;
    }
    const parsed = parse(layer, read.bytes.toString('utf8'));
    if (!parsed.ok) {
      loaded.problems.push({ file: layer.file, message: withoutFile(layer.file, parsed.message) });
      continue;
    }
    loaded.hooks.push(...parsed.hooks);
    loaded.notes.push(...parsed.notes);
    loaded.warnings.push(...(parsed.warnings ?? []));
  }
  return loaded;
}

/** The files every layer reads for one door, whether they exist or not. */
export function hookLayerFiles(root: string, options: { home: string; door: string }): string[] {
  return layers(root, options).map((layer) => layer.path);
}

function layers(root: string, options: { home: string; door: string }): Layer[] {
  const userPath = join(options.home, USER_HOOKS_FILE_NAME);
  const hooksJson = `a JSON file of hooks ({"hooks": {"PreToolUse": [...]}})`;
  const list: Layer[] = [
    { layer: 'user', path: userPath, file: userFileName(options.home, userPath), format: 'json', strict: true, replacement: hooksJson },
    { layer: 'project', path: join(root, PROJECT_HOOKS_FILE), file: PROJECT_HOOKS_FILE, format: 'json', strict: true, replacement: hooksJson },
    { layer: 'legacy', path: join(root, LEGACY_HOOKS_FILE), file: LEGACY_HOOKS_FILE, format: 'yaml', strict: true, replacement: 'a YAML file of hooks' },
  ];
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

function parse(layer: Layer, text: string): Parsed {
  if (layer.format === 'yaml') return parseLegacyHooksYaml(text);
  if (text.trim() === '') return { ok: true, hooks: [], notes: [], warnings: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `the file is not valid JSON (${why}); fix it (Claude Code's hooks format: {"hooks": {"PreToolUse": [...]}})` };
  }
  return parseHooksConfig(value, { layer: layer.layer, file: layer.file }, { strict: layer.strict });
}

/** Problems are shown as `<file>: <message>`; the parsers' messages already start with the file. */
function withoutFile(file: string, message: string): string {
  return message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
}
