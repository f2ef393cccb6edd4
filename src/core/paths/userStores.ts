import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { governorHome } from './governorHome';

/**
 * Every per-user store of the governor, named once. Two folders hold them: the governor's home (`$INTENT_GOVERNOR_HOME`,
 * else `~/.intent-governor`) and the config folder of the anchors (`$INTENT_GOVERNOR_ANCHOR_DIR`, else
 * `$XDG_CONFIG_HOME/intent-governor/anchors`), beside which the hook approvals live.
 */
export type HomeStore =
  /** The CLI doors' private signing key and its first-use notice. */
  | 'keys'
  /** The user hooks' last runs. */
  | 'hook-runs'
  /** Discovery files of running VS Code windows. */
  | 'servers'
  /** V8 code caches of the hook bundles. */
  | 'code-cache'
  /** The sandbox's seccomp program, write gate and placeholder sources. */
  | 'sandbox'
  /** The hook launcher. */
  | 'bin';

/** A store in the governor's home: `storeIn(home, 'keys')` when the home is known, `homeStore('keys', env)` otherwise. */
export function storeIn(home: string, store: HomeStore): string {
  return join(home, store);
}

export function homeStore(store: HomeStore, env: NodeJS.ProcessEnv = process.env): string {
  return storeIn(governorHome(env), store);
}

/** Where the trace anchors of this user live (per workspace and branch). */
export function anchorsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.INTENT_GOVERNOR_ANCHOR_DIR) return resolve(env.INTENT_GOVERNOR_ANCHOR_DIR);
  const config = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.APPDATA) || join(env.HOME || homedir(), '.config');
  return join(config, 'intent-governor', 'anchors');
}

/** The hook approvals a person gave, per workspace: beside the anchors, out of every repository. */
export function hookApprovalsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(anchorsDir(env)), 'hook-approvals');
}
