import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readRegularFile } from '../../io/regularFile';
import { isOurCommand } from '../../userHooks/ourHookCommand';
import type { AgentAdapter } from '../common/agentAdapter';
import { agentHookCommand } from '../common/hookCommand';
import type { HookInstallContext } from '../common/hookFileEdit';
import { isRecord } from '../common/hookDialect';
import { editJsonHooks } from '../common/jsonHookAgent';
import { AGENTS } from '../registry';
import type { DoorKind } from './doctorReport';

/**
 * Which agents' doors `governor hooks install` left in a workspace, read from each agent's own hook file without
 * running anything: the agent, its events with a hook of ours, the file, and whether the file is what an install
 * would write now. `governor doctor` finds the door it sends its canary through the same way; `hooks list` shows it.
 */

const MAX_HOOK_FILE_BYTES = 4 * 1024 * 1024;

type Json = Record<string, unknown>;

export type HookFileRead = { state: 'missing' } | { state: 'unreadable'; detail: string } | { state: 'read'; text: string };

export async function readHookFile(workspace: string, rel: string): Promise<HookFileRead> {
  const read = await readRegularFile(join(workspace, ...rel.split('/')), { maxBytes: MAX_HOOK_FILE_BYTES });
  if (read.ok) return { state: 'read', text: read.bytes.toString('utf8') };
  if (read.problem.kind === 'missing') return { state: 'missing' };
  return { state: 'unreadable', detail: `${rel} cannot be read (${read.problem.kind === 'not_regular' ? `it is ${read.problem.entry}` : read.problem.errno})` };
}

/** One hook handler of an event, with the matcher of the group it is in (or its own). */
export interface Handler {
  handler: Json;
  matcher: unknown;
}

export function handlersOf(list: unknown): Handler[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isRecord).flatMap((entry) => (Array.isArray(entry.hooks) ? entry.hooks.filter(isRecord).map((handler) => ({ handler, matcher: handler.matcher ?? entry.matcher })) : [{ handler: entry, matcher: entry.matcher }]));
}

/** Our handlers in a parsed JSON hook file, by event (events without one of ours left out). */
export function ourJsonHandlers(agent: AgentAdapter, config: unknown): Record<string, Handler[]> {
  const events = !isRecord(config) ? {} : agent.jsonHooks?.shape.topLevel ? config : isRecord(config.hooks) ? config.hooks : {};
  const ours = (h: Json) => isOurCommand(h.command) || agent.jsonHooks?.shape.isOurHook?.(h) === true;
  const found: Record<string, Handler[]> = {};
  for (const [event, list] of Object.entries(events)) {
    const mine = handlersOf(list).filter((h) => ours(h.handler));
    if (mine.length) found[event] = mine;
  }
  return found;
}

/** The names of the files of ours in a folder of hook files (`folder` ends in '/'; a file: none). */
export async function ourHookFiles(workspace: string, folder: string, isOurs: (text: string) => boolean): Promise<string[]> {
  if (!folder.endsWith('/')) return [];
  const names = await readdir(join(workspace, ...folder.split('/').filter(Boolean))).catch(() => [] as string[]);
  const ours: string[] = [];
  for (const name of names.sort()) {
    const read = await readHookFile(workspace, `${folder}${name}`);
    if (read.state === 'read' && isOurs(read.text)) ours.push(name);
  }
  return ours;
}

/** What `hooks list` shows of one agent's door. `current` is absent where the install's text cannot be compared. */
export interface InstalledDoor {
  agent: string;
  label: string;
  state: 'installed' | 'not installed' | 'unreadable';
  door?: DoorKind;
  /** The file (or, for a folder of hook files, the folder) relative to the workspace. */
  hookFile: string;
  /** The agent's events (or hook files) that run a hook of ours. */
  events: string[];
  current?: boolean;
  /** One line: the state in words and what to do. */
  detail: string;
}

export interface InstalledDoorsOptions {
  /** What an install would be given (the user hooks for Claude Code's routing, the environment). */
  context?: HookInstallContext;
  agents?: readonly AgentAdapter[];
}

export async function installedDoors(workspace: string, options: InstalledDoorsOptions = {}): Promise<InstalledDoor[]> {
  const doors: InstalledDoor[] = [];
  for (const agent of options.agents ?? AGENTS) doors.push(await installedDoor(workspace, agent, options.context ?? {}));
  return doors;
}

function reinstall(agent: AgentAdapter): string {
  return `governor hooks install --agent ${agent.id}`;
}

async function installedDoor(workspace: string, agent: AgentAdapter, context: HookInstallContext): Promise<InstalledDoor> {
  const base = { agent: agent.id, label: agent.label };
  const door = agent.canary.door;
  if (door.kind === 'json' && agent.jsonHooks) {
    const hooks = agent.jsonHooks;
    const hookFile = hooks.shape.file;
    const read = await readHookFile(workspace, hookFile);
    if (read.state === 'missing') return { ...base, state: 'not installed', hookFile, events: [], detail: `not installed: ${reinstall(agent)}` };
    if (read.state === 'unreadable') return { ...base, state: 'unreadable', hookFile, events: [], detail: read.detail };
    let config: unknown;
    try {
      config = JSON.parse(read.text);
    } catch {
      return { ...base, state: 'unreadable', hookFile, events: [], detail: `${hookFile} is not valid JSON, so ${agent.label} reads no hooks from it` };
    }
    const ours = ourJsonHandlers(agent, config);
    const events = Object.keys(ours);
    if (events.length === 0) return { ...base, state: 'not installed', hookFile, events, detail: `not installed: ${reinstall(agent)}` };
    const kind: DoorKind = Object.values(ours).some((list) => list.some((h) => h.handler.type === 'mcp_tool')) ? 'resident (mcp_tool)' : 'command hook';
    // The file is current when an install now would leave it as it is (Claude Code: with the kind it has).
    const installContext: HookInstallContext = { ...context, ...(agent.id === 'claude' ? { claudeHooks: kind === 'command hook' ? 'command' : 'mcp_tool' } : {}) };
    const again = editJsonHooks(hooks, read.text, 'install', agentHookCommand(agent.dialect, ''), installContext);
    const current = again.ok && again.text === read.text;
    return { ...base, state: 'installed', door: kind, hookFile, events, current, detail: current ? 'current' : `out of date: ${reinstall(agent)}` };
  }
  if (door.kind === 'script') {
    const folder = agent.hookFiles;
    const events = (await ourHookFiles(workspace, folder, door.isOurs)).map((name) => name.replace(/\.[^.]*$/u, ''));
    if (events.length === 0) return { ...base, state: 'not installed', hookFile: folder, events, detail: `not installed: ${reinstall(agent)}` };
    return { ...base, state: 'installed', door: 'scripts', hookFile: folder, events, detail: 'installed' };
  }
  if (door.kind === 'plugin') {
    const hookFile = door.file ?? agent.hookFiles;
    const read = await readHookFile(workspace, hookFile);
    if (read.state === 'unreadable') return { ...base, state: 'unreadable', hookFile, events: [], detail: read.detail };
    if (read.state === 'missing' || !door.isOurs(read.text)) return { ...base, state: 'not installed', hookFile, events: [], detail: `not installed: ${reinstall(agent)}` };
    return { ...base, state: 'installed', door: 'plugin', hookFile, events: [door.hook], detail: 'installed' };
  }
  return { ...base, state: 'unreadable', hookFile: agent.hookFiles, events: [], detail: `${agent.label}'s adapter has a JSON door but no jsonHooks (a bug in Intent Governor: report it)` };
}
