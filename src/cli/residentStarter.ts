import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINTS_IN_HOME, readResidentEndpoint, residentEndpointPath } from '../core/agents/common/residentProtocol';
import type { BridgeAnswer, BridgeRequest } from '../core/agents/common/nativeCall';
import { askExtension } from '../core/bridge/extensionClient';
import { governorHome } from '../core/paths/governorHome';

/** A resident that does not come up is not started again for this long: a hook never pays for a crash loop. */
const RETRY_AFTER_MS = 10_000;

/** How long a call whose post will not come waits for the resident that is coming up, and for its answer. */
const COME_UP_MS = 3_000;
const ANSWER_MS = 30_000;
const LOOK_EVERY_MS = 20;

/** Touched when a resident is started for `root`, removed once it serves. */
export function residentStartMarker(home: string, root: string): string {
  return residentEndpointPath(home, root).replace(/\.endpoint$/u, '.starting');
}

/**
 * Starts the workspace's resident governor (`governor resident`, see residentCommand.ts) in the background, for the
 * next hook call: this one is decided by the Node hook that calls this. At most one start per workspace every
 * RETRY_AFTER_MS (a marker file's time), and the resident itself exits at once when another one, or VS Code, governs
 * the folder. `INTENT_GOVERNOR_RESIDENT=off` starts none.
 */
export function startResident(root: string, env: NodeJS.ProcessEnv, cliScript: string): void {
  if (env.INTENT_GOVERNOR_RESIDENT === 'off') return;
  const home = governorHome(env);
  const marker = residentStartMarker(home, root);
  try {
    if (Date.now() - statSync(marker).mtimeMs < RETRY_AFTER_MS) return;
    const now = new Date();
    utimesSync(marker, now, now);
  } catch {
    mkdirSync(join(home, ENDPOINTS_IN_HOME), { recursive: true, mode: 0o700 });
    writeFileSync(marker, '');
  }
  const child = spawn(process.execPath, [cliScript, 'resident', '--workspace', root], { cwd: root, env, detached: true, stdio: 'ignore', windowsHide: true });
  child.on('error', () => undefined); // the Node hook answers this call either way
  child.unref();
}

/**
 * A call whose post the agent will not send (`unposted`) is the resident's to judge: it completes the change once
 * the tool wrote it, where this process would be gone and leave it to a reconciliation. So the Node hook that
 * starts the resident waits for it to come up (about a fifth of a second, once per start) and asks it; undefined
 * when none comes up in time or it does not answer, and the Node hook decides as before.
 */
export async function askStartingResident(root: string, request: BridgeRequest, env: NodeJS.ProcessEnv): Promise<BridgeAnswer | undefined> {
  if (env.INTENT_GOVERNOR_RESIDENT === 'off') return undefined;
  const home = governorHome(env);
  const until = Date.now() + COME_UP_MS;
  for (;;) {
    const endpoint = readResidentEndpoint(home, root);
    if (endpoint) {
      const asked = await askExtension(endpoint, request, ANSWER_MS);
      return asked.ok ? asked.answer : undefined;
    }
    // Its start marker goes once it serves, or when it gave way to another: with neither, none is coming.
    if (Date.now() > until || !existsSync(residentStartMarker(home, root))) return undefined;
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}
