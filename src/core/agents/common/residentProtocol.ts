import { join } from 'node:path';
import type { HookReply } from './hookDialect';

/**
 * How an agent's hook reaches the workspace's resident governor without starting a JavaScript runtime: the hook
 * launcher (hookLauncher.ts) finds the governed folder above its cwd, reads the resident's endpoint file (a curl
 * config, 0600, named by the folder's POSIX `cksum`) and POSTs the agent's hook input to AGENT_HOOK_PATH with curl.
 * The answer is text a POSIX shell splits with builtins (see residentReplyText). Anything else, or no resident, and
 * the launcher runs the Node hook as before, which also starts a resident for the next call.
 */

/** The route on the resident's loopback server (the extension's, or a headless `governor resident`). */
export const AGENT_HOOK_PATH = '/agent-hook';

/** Headers the launcher sends beside the hook input (values are raw bytes of the shell's strings). */
export const RESIDENT_HEADERS = {
  agent: 'x-intent-governor-agent',
  cwd: 'x-intent-governor-cwd',
  timeoutMs: 'x-intent-governor-timeout-ms',
} as const;

/** One header per forwarded variable (a repeated header would reach the server joined with commas). */
export function forwardedEnvHeader(name: (typeof FORWARDED_ENV)[number]): string {
  return `x-intent-governor-env-${name.toLowerCase()}`;
}

/**
 * The hook process's environment the governor reads (the intent, Copilot CLI's markers): the launcher forwards each
 * that is set, in its own header (forwardedEnvHeader), so the resident judges as the Node hook would have.
 */
export const FORWARDED_ENV = ['INTENT_GOVERNOR_INTENT', 'COPILOT_CLI', 'COPILOT_PROJECT_DIR'] as const;

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

/** POSIX `cksum`'s CRC (polynomial 0x04C11DB7, the length appended), as the shell computes it with `cksum`. */
export function posixCksum(bytes: Uint8Array): number {
  let crc = 0;
  const step = (byte: number) => {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? ((crc << 1) ^ 0x04c11db7) >>> 0 : (crc << 1) >>> 0;
  };
  for (const byte of bytes) step(byte);
  for (let length = bytes.length; length > 0; length >>>= 8) step(length & 0xff);
  return ~crc >>> 0;
}

/** Where the governor home keeps resident endpoints (0700: the files hold tokens). */
export const ENDPOINTS_IN_HOME = 'run';

/** `<home>/run/<cksum>-<bytes>.curl`: the endpoint file of the resident governing `root`, as the launcher names it. */
export function residentEndpointPath(home: string, root: string): string {
  const bytes = Buffer.from(root, 'utf8');
  return join(home, ENDPOINTS_IN_HOME, `${posixCksum(bytes)}-${bytes.length}.curl`);
}
