import { describeProblem, readRegularFileSync } from '../io/regularFile';
import { FileDerived } from '../io/fileDerived';
import { readManagedSettings } from '../managed/managedSettings';
import { parseAgentsHooksToml } from './agentsHooksToml';
import { hookLayerFiles, hookLayerTable, type HookLayerFile } from './hookLayerFiles';
import { parseHooksConfig } from './hooksConfig';
import type { HookSpec } from './hookSpec';
import { parseLegacyHooksYaml } from './legacyHooksYaml';

/** A policy file, not a program: anything bigger is a mistake, and it is read on every governed call. */
export const MAX_HOOKS_FILE_BYTES = 256 * 1024;

export interface LoadedHooks {
  /**
   * In layer order (user, ~/.claude, ~/.agents, project, legacy, .agents, .claude, managed): it matters, since a
   * later `updatedInput` wins, so the managed file's comes last. A deny wins wherever it stands.
   */
  hooks: HookSpec[];
  /** Files that exist but cannot be read or understood; the runner fails closed on decision events. */
  problems: { file: string; message: string }[];
  /** Things a person may want to know (a skipped Claude-only hook, the old file's migration hint). */
  notes: string[];
  /** Entries skipped because they are wrong (an unknown event, a broken observation hook); the rest still holds. */
  warnings: string[];
}

type Parsed = { ok: true; hooks: HookSpec[]; notes: string[]; warnings?: string[] } | { ok: false; message: string };


/**
 * Every layer's hooks for one workspace, as one door sees them. Synchronous and bounded: each file is read with
 * the regular-file reader (a FIFO or device there is a problem at once, never a hang), capped; a missing file
 * is no hooks; a broken one is a problem and the other layers still load.
 */
export function loadHookLayers(root: string, options: { home: string; door: string; env?: NodeJS.ProcessEnv }): LoadedHooks {
  const loaded: LoadedHooks = { hooks: [], problems: [], notes: [], warnings: [] };
  const managed = managedHooks(options.env ?? process.env);
  if (managed.problem) loaded.problems.push(managed.problem);
  if (managed.disableAllHooks) {
    loaded.notes.push(`${managed.file}: disableAllHooks is true: the administrator turned every hook off, the managed ones too`);
    return loaded;
  }
  for (const layer of hookLayerTable(root, options)) {
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
    loaded.notes.push(...parsed.notes);
    loaded.warnings.push(...(parsed.warnings ?? []));
    if (managed.allowManagedHooksOnly) {
      if (parsed.hooks.length) loaded.notes.push(`${layer.file}: its ${parsed.hooks.length} hook(s) do not run: the administrator allows managed hooks only (allowManagedHooksOnly)`);
      continue;
    }
    if (layer.format === 'json' && disablesAll(read.bytes)) loaded.notes.push(`${layer.file}: disableAllHooks is honoured only in the managed file; here it is ignored (a file cannot switch off the other files' hooks)`);
    loaded.hooks.push(...parsed.hooks);
  }
  loaded.hooks.push(...managed.hooks);
  loaded.notes.push(...managed.notes);
  loaded.warnings.push(...managed.warnings);
  return loaded;
}

interface ManagedHooks {
  file: string;
  hooks: HookSpec[];
  notes: string[];
  warnings: string[];
  disableAllHooks: boolean;
  allowManagedHooksOnly: boolean;
  problem?: { file: string; message: string };
}

/**
 * The administrator's layer: its hooks run last and always; `disableAllHooks` turns every hook off, its own too;
 * `allowManagedHooksOnly` keeps every other file's hooks from running. A managed file that cannot be read is a
 * problem (decisions refused): an administrator's policy that cannot be checked is not assumed away.
 */
function managedHooks(env: NodeJS.ProcessEnv): ManagedHooks {
  const settings = readManagedSettings(env);
  const none: ManagedHooks = { file: settings.path, hooks: [], notes: [], warnings: [], disableAllHooks: false, allowManagedHooksOnly: false };
  if (settings.kind === 'absent') return none;
  if (settings.kind === 'broken') return { ...none, problem: { file: settings.path, message: settings.message } };
  const parsed = parseHooksConfig({ hooks: settings.value.hooks }, { layer: 'managed', file: settings.path }, { strict: true });
  if (!parsed.ok) return { ...none, problem: { file: settings.path, message: withoutFile(settings.path, parsed.message) } };
  return { ...none, hooks: parsed.hooks, notes: parsed.notes, warnings: parsed.warnings, disableAllHooks: settings.value.disableAllHooks === true, allowManagedHooksOnly: settings.value.allowManagedHooksOnly === true };
}

function disablesAll(bytes: Buffer): boolean {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as { disableAllHooks?: unknown };
    return typeof value === 'object' && value !== null && value.disableAllHooks === true;
  } catch {
    return false;
  }
}

/**
 * loadHookLayers for a process that loads them on every call (a resident governor, the extension): the files are
 * read again only when one of them appeared, went or changed, so with no hook file at all a call costs a few stats.
 */
export class CachedHookLayers {
  private readonly derived = new FileDerived<LoadedHooks>();
  /** Where the layers' files are: fixed by the root, the governor home, the door and the environment, so listed once. */
  private readonly files: string[];

  constructor(
    private readonly root: string,
    private readonly options: { home: string; door: string; env?: NodeJS.ProcessEnv },
  ) {
    this.files = hookLayerFiles(root, options);
  }

  get(): LoadedHooks {
    return this.derived.get(this.files, () => loadHookLayers(this.root, this.options));
  }
}

function parse(layer: HookLayerFile, text: string): Parsed {
  if (layer.format === 'yaml') return parseLegacyHooksYaml(text);
  if (layer.format === 'toml') return parseAgentsHooksToml(text, { layer: layer.layer, file: layer.file });
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
