import { LAUNCHER_ASSIGNMENT } from './hookCommand';

/**
 * An install may leave some tools' post event out (each hook an agent runs costs it a process per call): the pre
 * hook's command then sets this variable to those tools' names, comma separated, and the launcher forwards it, so
 * the long-lived governor that answers the pre completes the change itself (selfCompletions.ts).
 */
export const UNPOSTED_ENV = 'INTENT_GOVERNOR_UNPOSTED';

/** Stands for every tool in the list: an agent that runs its post hook for every tool or none (Cline). */
export const EVERY_TOOL = '*';

/** Whether the hook that runs with `env` says the agent will send no post for `tool`. */
export function isUnposted(env: NodeJS.ProcessEnv, tool: string): boolean {
  const list = env[UNPOSTED_ENV];
  return list !== undefined && list !== '' && list.split(',').some((name) => name === tool || name === EVERY_TOOL);
}

/**
 * The hook command `command` (agentHookCommand's) telling the governor that `tools` send no post; undefined when the
 * command cannot carry it (the form for Windows' shells, which starts node itself): their posts must stay then.
 */
export function commandWithUnposted(command: string, tools: readonly string[]): string | undefined {
  const prefix = `${LAUNCHER_ASSIGNMENT};`;
  if (!command.startsWith(prefix) || tools.some((tool) => tool !== EVERY_TOOL && !/^[A-Za-z0-9_-]+$/u.test(tool))) return undefined;
  return `${prefix} export ${UNPOSTED_ENV}='${tools.join(',')}';${command.slice(prefix.length)}`;
}
