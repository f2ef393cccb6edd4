import type { Invocation } from './confinedInvocation';

/** One word for a POSIX shell: single-quoted unless it is plainly safe as it is. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/u.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * A confined invocation as one shell command line, for an agent's own shell to run in place of the command it
 * was given: `env` sets the private temp folder, then the sandbox runs `/bin/sh -c <command>`. Every word is
 * quoted, so the original command reaches `sh -c` byte for byte whatever shell the agent runs this line in.
 */
export function confinedCommandLine(invocation: Invocation, tempDir: string): string {
  const env = ['TMPDIR', 'TMP', 'TEMP'].map((name) => `${name}=${tempDir}`);
  return ['/usr/bin/env', ...env, invocation.file, ...invocation.args].map(shellQuote).join(' ');
}
