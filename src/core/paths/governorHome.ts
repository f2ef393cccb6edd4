import { homedir } from 'node:os';
import { join } from 'node:path';

/** The governor's per-user directory: `$INTENT_GOVERNOR_HOME`, else `~/.intent-governor` (servers, code cache, user hooks). */
export function governorHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.INTENT_GOVERNOR_HOME || join(env.HOME || homedir(), '.intent-governor');
}
