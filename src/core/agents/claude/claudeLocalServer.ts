import { join } from 'node:path';
import type { ConfigEdit } from '../common/hookFileEdit';
import { RESIDENT_SERVER_NAME } from './residentHook';

type Json = Record<string, unknown>;

/**
 * Claude Code's own config file, where "local scope" MCP servers live: per project, private to this person and
 * machine (what `claude mcp add --scope local` writes). The resident governor goes here rather than into a
 * committed `.mcp.json`, because its command names this machine's path to the governor.
 */
export function claudeConfigFile(env: NodeJS.ProcessEnv, home: string): string {
  return join(env.CLAUDE_CONFIG_DIR || home, '.claude.json');
}

/** The stdio server Claude Code starts for a session in `workspace`: the resident governor. */
export function residentServerEntry(cliPath: string, workspace: string): Json {
  return { type: 'stdio', command: 'node', args: [cliPath, 'mcp', '--workspace', workspace, '--agent', 'claude'], env: {} };
}

function isOurs(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const args = (entry as Json).args;
  return Array.isArray(args) && args.includes('mcp') && args.includes('--agent') && args.includes('claude');
}

function parse(text: string | undefined, file: string): { ok: true; value: Json } | { ok: false; message: string } {
  if (text === undefined || text.trim() === '') return { ok: true, value: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { ok: true, value: value as Json };
  } catch {
    // reported below
  }
  return { ok: false, message: `${file} is not a JSON object, so the resident governor was not registered there; fix it (Claude Code rewrites it) and install again` };
}

function objectAt(parent: Json, key: string): Json {
  const value = parent[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Json) } : {};
}

/** Claude's config with the resident governor as this project's local-scope server; every other key kept. */
export function installClaudeLocalServer(existing: string | undefined, file: string, workspace: string, cliPath: string): ConfigEdit {
  const parsed = parse(existing, file);
  if (!parsed.ok) return parsed;
  const config = { ...parsed.value };
  const projects = objectAt(config, 'projects');
  const project = objectAt(projects, workspace);
  const servers = objectAt(project, 'mcpServers');
  const current = servers[RESIDENT_SERVER_NAME];
  if (current !== undefined && !isOurs(current)) {
    return { ok: false, message: `${file} already has an MCP server named '${RESIDENT_SERVER_NAME}' for ${workspace} that is not the resident governor; rename or remove it, then install again` };
  }
  servers[RESIDENT_SERVER_NAME] = residentServerEntry(cliPath, workspace);
  project.mcpServers = servers;
  projects[workspace] = project;
  config.projects = projects;
  return { ok: true, text: `${JSON.stringify(config, null, 2)}\n` };
}

/** Claude's config without our server (only ours: a same-named server of the user's is left alone). */
export function uninstallClaudeLocalServer(existing: string | undefined, file: string, workspace: string): ConfigEdit {
  if (existing === undefined) return { ok: true, text: existing ?? null };
  const parsed = parse(existing, file);
  if (!parsed.ok) return parsed;
  const config = { ...parsed.value };
  const projects = objectAt(config, 'projects');
  const project = objectAt(projects, workspace);
  const servers = objectAt(project, 'mcpServers');
  if (!isOurs(servers[RESIDENT_SERVER_NAME])) return { ok: true, text: existing };
  delete servers[RESIDENT_SERVER_NAME];
  // Nothing of ours is left behind: an emptied server list goes, and a project entry that only held it.
  if (Object.keys(servers).length > 0) project.mcpServers = servers;
  else delete project.mcpServers;
  if (Object.keys(project).length > 0) projects[workspace] = project;
  else delete projects[workspace];
  if (Object.keys(projects).length > 0) config.projects = projects;
  else delete config.projects;
  // A config that only ever held our entry (made by the install) goes with it.
  return { ok: true, text: Object.keys(config).length > 0 ? `${JSON.stringify(config, null, 2)}\n` : null };
}
