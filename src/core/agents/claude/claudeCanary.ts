import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { readRegularFile } from '../../io/regularFile';
import { claudeStyleBlocks, type AgentCanary, type McpServerLookup } from '../common/canary';
import { isRecord } from '../common/hookDialect';
import { claudeConfigFile } from './claudeLocalServer';

const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/**
 * The stdio server an `mcp_tool` hook names, as Claude Code finds it for a session in `workspace`: this project's
 * local-scope servers in ~/.claude.json (or $CLAUDE_CONFIG_DIR/.claude.json), keyed by the project's path.
 */
async function residentServer(workspace: string, server: string, env: NodeJS.ProcessEnv): Promise<McpServerLookup> {
  const file = claudeConfigFile(env, env.HOME || homedir());
  const read = await readRegularFile(file, { maxBytes: MAX_CONFIG_BYTES });
  if (!read.ok) return { ok: false, file, problem: read.problem.kind === 'missing' ? `${file} does not exist` : `${file} cannot be read (${read.problem.errno})` };
  let config: unknown;
  try {
    config = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return { ok: false, file, problem: `${file} is not valid JSON` };
  }
  const projects = isRecord(config) && isRecord(config.projects) ? config.projects : {};
  const real = await realpath(workspace).catch(() => workspace);
  const project = [workspace, real].map((key) => projects[key]).find(isRecord);
  const entry = project && isRecord(project.mcpServers) ? project.mcpServers[server] : undefined;
  if (!isRecord(entry)) return { ok: false, file, problem: `${file} has no MCP server '${server}' for ${workspace}` };
  if (entry.type !== undefined && entry.type !== 'stdio') return { ok: false, file, problem: `the '${server}' server in ${file} is of type '${String(entry.type)}', not the resident governor's stdio server` };
  if (typeof entry.command !== 'string' || entry.command === '') return { ok: false, file, problem: `the '${server}' server in ${file} has no command` };
  const args = Array.isArray(entry.args) ? entry.args.filter((arg): arg is string => typeof arg === 'string') : [];
  const serverEnv = isRecord(entry.env) ? Object.fromEntries(Object.entries(entry.env).filter((pair): pair is [string, string] => typeof pair[1] === 'string')) : {};
  return { ok: true, file, command: entry.command, args, env: serverEnv };
}

/** Claude Code interpolates `${field}` in an mcp_tool hook's input from the hook input: an object as its JSON text, a missing field as ''. */
function mcpToolArguments(template: unknown, payload: Record<string, unknown>): Record<string, unknown> {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/gu, (_, field: string) => {
        const found = payload[field];
        return found === undefined || found === null ? '' : typeof found === 'string' ? found : JSON.stringify(found);
      });
    }
    if (Array.isArray(value)) return value.map(fill);
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, fill(v)]));
    return value;
  };
  return isRecord(template) ? (fill(template) as Record<string, unknown>) : {};
}

/**
 * Claude Code's canary: a Write as its PreToolUse hook receives it (https://docs.claude.com/en/docs/claude-code/hooks),
 * through our PreToolUse entry run with bash in the project directory, CLAUDE_PROJECT_DIR set as Claude Code sets it;
 * with the resident governor, through the `mcp_tool` hook of that entry, answered by the local MCP server Claude
 * Code would start. Refused: exit 2, a deny, or a failed hook tool with `onFailure: "block"`.
 */
export const claudeCanary: AgentCanary = {
  door: { kind: 'json', event: 'PreToolUse', tool: 'Write', shell: 'bash' },
  payload: (call) => ({
    session_id: call.sessionId,
    transcript_path: '',
    cwd: call.workspace,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_use_id: call.callId,
    tool_input: { file_path: call.path, content: call.content },
  }),
  env: (call) => ({ CLAUDE_PROJECT_DIR: call.workspace }),
  blocks: (reply) => claudeStyleBlocks(reply, 'Claude Code'),
  mcpServer: residentServer,
  mcpToolArguments,
};
