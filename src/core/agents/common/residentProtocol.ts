import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookReply } from './hookDialect';

/**
 * How an agent's hook reaches the workspace's resident governor without starting a JavaScript runtime: the hook
 * launcher (hookLauncher.ts, bash) finds the governed folder above its cwd, reads the resident's endpoint file (port,
 * token and pid; 0600, named by the folder's path, see residentEndpointPath) and POSTs the agent's hook input to
 * AGENT_HOOK_PATH over bash's /dev/tcp. The answer is text bash splits with builtins (see residentReplyText).
 * Anything else, or no resident, and the launcher runs the Node hook as before, which also starts a resident for the
 * next call. OpenCode's plugin, which runs inside OpenCode, sends the same request itself (opencodePlugin.ts).
 */

/** The route on the resident's loopback server (the extension's, or a headless `governor resident`). */
export const AGENT_HOOK_PATH = '/agent-hook';

/** Headers the launcher sends beside the hook input (values are raw bytes of the shell's strings). */
export const RESIDENT_HEADERS = {
  agent: 'x-intent-governor-agent',
  cwd: 'x-intent-governor-cwd',
  timeoutMs: 'x-intent-governor-timeout-ms',
  /** `<pid> <start>` of the bash that sends the request (Linux): the agent is found above it (BridgeRequest.caller). */
  caller: 'x-intent-governor-caller',
} as const;

/** One header per forwarded variable (a repeated header would reach the server joined with commas). */
export function forwardedEnvHeader(name: (typeof FORWARDED_ENV)[number]): string {
  return `x-intent-governor-env-${name.toLowerCase()}`;
}

/**
 * The hook process's environment the governor reads (the intent, the tools whose post the install leaves out
 * (unpostedTools.ts), Copilot CLI's markers): the launcher forwards each that is set, in its own header
 * (forwardedEnvHeader), so the resident judges as the Node hook would have.
 */
export const FORWARDED_ENV = ['INTENT_GOVERNOR_INTENT', 'INTENT_GOVERNOR_UNPOSTED', 'COPILOT_CLI', 'COPILOT_PROJECT_DIR'] as const;

/** Separates the hook's stdout from its stderr in the answer; no agent's JSON holds this line. */
export const STDERR_MARKER = '--intent-governor-stderr--';

/** The status a resident answers for a folder it does not govern: the launcher then runs the Node hook. */
export const NOT_MINE_STATUS = 421;

/**
 * The answer's text: the exit code on the first line, the stdout, the marker on a line of its own, the stderr, and
 * a final `.` (a shell's command substitution strips trailing newlines; the dot keeps the stderr's).
 */
export function residentReplyText(reply: HookReply): string {
  return `${reply.exitCode}\n${reply.stdout}\n${STDERR_MARKER}\n${reply.stderr}.`;
}

/** Where the governor home keeps resident endpoints (0700: the files hold tokens). */
export const ENDPOINTS_IN_HOME = 'run';

/**
 * What a resident's endpoint file says, one line `<port> <token> <pid>`, which the hook launcher reads with bash's
 * `read` (written 0600 into a 0700 folder, so only this user's hooks can read the token; see residentEndpoint.ts).
 */
export interface ResidentEndpoint {
  port: number;
  token: string;
  pid: number;
}

/** The endpoint of the resident governing `root`; undefined when there is none or it cannot be read. */
export function readResidentEndpoint(home: string, root: string): ResidentEndpoint | undefined {
  let text: string;
  try {
    text = readFileSync(residentEndpointPath(home, root), 'utf8');
  } catch {
    return undefined;
  }
  const fields = /^(\d+) (\S+) (\d+)\n$/u.exec(text);
  return fields ? { port: Number(fields[1]), token: fields[2], pid: Number(fields[3]) } : undefined;
}

/**
 * `<home>/run/<root, % and / escaped>.endpoint`: the endpoint file of the resident governing `root`, named so the
 * launcher computes the name with bash's own substitutions (no hashing process per call).
 */
export function residentEndpointPath(home: string, root: string): string {
  return join(home, ENDPOINTS_IN_HOME, `${root.replaceAll('%', '%25').replaceAll('/', '%2F')}.endpoint`);
}
