import type { HookFiring } from './userHookRunner';

/**
 * An event a watcher fires rather than an agent's session (ConfigChange, FileChanged, CwdChanged): the watcher
 * (`governor-resident`, `vscode`) stands in as session and agent, so `once` and the run log key on it.
 */
export function watcherFiring(watcher: string, event: HookFiring['event'], cwd: string, fields: Record<string, unknown>, matchValue?: string): HookFiring {
  const firing: HookFiring = { event, sessionKey: watcher, sessionId: watcher, agent: { name: watcher }, cwd, fields };
  if (matchValue !== undefined) firing.matchValue = matchValue;
  return firing;
}
