import { claudeAgent } from './claude/claudeAgent';
import { clineAgent } from './cline/clineAgent';
import { codexAgent } from './codex/codexAgent';
import type { AgentAdapter } from './common/agentAdapter';
import type { HookDialect } from './common/hookDialect';
import { copilotAgent } from './copilot/copilotAgent';
import { cursorAgent } from './cursor/cursorAgent';
import { droidAgent } from './droid/droidAgent';
import { geminiAgent } from './gemini/geminiAgent';
import { opencodeAgent } from './opencode/opencodeAgent';
import { qwenAgent } from './qwen/qwenAgent';
import { vscodeAgent } from './vscode/vscodeAgent';

/**
 * Every agent Intent Governor governs through its hooks, in the order people see them. This is the one list:
 * the CLI's agent names, the install targets, labels, hook files and the dialects all derive from it. Adding an
 * agent is one folder under src/core/agents/ and one line here (see CONTRIBUTING, "Adding an agent").
 */
export const AGENTS = [vscodeAgent, claudeAgent, cursorAgent, geminiAgent, codexAgent, copilotAgent, opencodeAgent, clineAgent, qwenAgent, droidAgent] as const;

export type AgentId = (typeof AGENTS)[number]['id'];
/** The name the installer and `governor hook` take. */
export type HookAgent = AgentId;

export const AGENT_IDS: readonly AgentId[] = AGENTS.map((agent) => agent.id);

export function isAgentId(value: string): value is AgentId {
  return (AGENT_IDS as readonly string[]).includes(value);
}

export function agentById(id: AgentId): AgentAdapter<AgentId>;
export function agentById(id: string): AgentAdapter | undefined;
export function agentById(id: string): AgentAdapter | undefined {
  return AGENTS.find((agent) => agent.id === id);
}

/** Every agent's hook dialect by the argument of `governor hook <agent>`. */
export const DIALECTS: Readonly<Record<string, HookDialect>> = Object.fromEntries(AGENTS.map((agent) => [agent.id, agent.dialect]));

/** Where each agent reads its hooks, relative to the workspace. */
export const HOOK_CONFIG_FILES = Object.fromEntries(AGENTS.map((agent) => [agent.id, agent.hookFiles])) as Readonly<Record<AgentId, string>>;
