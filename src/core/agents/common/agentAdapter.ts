import type { AgentCanary } from './canary';
import type { JsonHooks } from './hookConfig';
import type { HookDialect } from './hookDialect';
import type { AgentInstallContext, HookFileChange } from './hookFileEdit';
import type { ShellConfinement } from './shellConfinement';

/**
 * Everything the project knows about one agent, in one place: how its hooks talk (dialect), where they are
 * installed and how, and how to find the agent's own binary. Each agent's folder exports one; the registry
 * lists them, and every other list (CLI agent names, install targets, labels, the support table) derives from it.
 */
export interface AgentAdapter<Id extends string = string> {
  /** `governor hook <id>`, `governor hooks install --agent <id>`; the dialect's id too. */
  readonly id: Id;
  /** How a person calls the agent ("Claude Code"). */
  readonly label: string;
  readonly dialect: HookDialect;
  /** Where its hooks live, relative to the workspace (a file, or a folder ending in '/'). */
  readonly hookFiles: string;
  /**
   * Writes or removes our hooks for this agent in `root` (the user's own hooks and settings are kept). `cliPath` is
   * this machine's hook bundle: it stays out of the workspace (the hooks run `context.command`, which names the
   * per-user launcher); Claude Code's local MCP server in ~/.claude.json names it.
   */
  install(root: string, mode: 'install' | 'uninstall', cliPath: string, context: AgentInstallContext): Promise<HookFileChange[]>;
  /** For an agent whose hooks are one JSON file: its shape and our entries (install uses them). */
  readonly jsonHooks?: JsonHooks;
  /** The agent's own command, for version detection (`<binary> --version`); none for an editor's built-in agent. */
  readonly binary?: string;
  /** What the hooks can govern, for the README's support table and `governor doctor`. */
  readonly enforcement: 'enforced' | 'trace-only';
  /**
   * Whether the agent's own shell runs confined by the sandbox (its dialect has `confineShell`) or is judged by its
   * text alone, for the README's support table; a unit test holds the two together.
   */
  readonly shellConfinement: ShellConfinement;
  /**
   * How `governor doctor` proves the installed door refuses: the pre-tool payload of a write no intent owns, how the
   * agent runs the hook, and how it reads the reply (canary.ts). Required, so no agent is added without saying it.
   */
  readonly canary: AgentCanary;
}
