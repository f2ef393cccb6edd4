import { spawnSync } from 'node:child_process';
import { MCP_TOOL_HOOKS_SINCE } from './residentHook';
import type { ClaudeHookKind } from '../common/hookFileEdit';

function older(version: string, than: string): boolean {
  const a = version.split('.').map(Number);
  const b = than.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
}

/**
 * Which hooks the installed Claude Code can run: `claude --version` older than 2.1.118 gets command hooks; a
 * newer one, or none found on PATH (it may be installed later, and current releases all have them), mcp_tool.
 */
export function detectClaudeHookKind(env: NodeJS.ProcessEnv = process.env): { kind: ClaudeHookKind; version?: string } {
  const run = spawnSync('claude', ['--version'], { env, encoding: 'utf8', timeout: 10_000 });
  const version = /(\d+\.\d+\.\d+)/.exec(run.stdout ?? '')?.[1];
  if (run.status !== 0 || version === undefined) return { kind: 'mcp_tool' };
  return { kind: older(version, MCP_TOOL_HOOKS_SINCE) ? 'command' : 'mcp_tool', version };
}
