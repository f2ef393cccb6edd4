import type { Invocation } from './confinedInvocation';

/** One word for a POSIX shell: single-quoted unless it is plainly safe as it is. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/u.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * A confined invocation as one shell command line, for an agent's own shell to run in place of the command it
 * was given: assignments set the private temp folder for the sandbox's command, then the sandbox runs
 * `/bin/sh -c <command>`. Every word is quoted, so the original command reaches `sh -c` byte for byte whatever
 * POSIX shell the agent runs this line in. Assignments, not `/usr/bin/env`: GitHub Copilot CLI 1.0.102 refuses a
 * rewritten command whose program changes its environment ("execution context changed after permission evaluation").
 */
export function confinedCommandLine(invocation: Invocation, tempDir: string): string {
  const assignments = ['TMPDIR', 'TMP', 'TEMP'].map((name) => `${name}=${shellQuote(tempDir)}`);
  const fd3 = invocation.fd3 !== undefined ? [`3<${shellQuote(invocation.fd3)}`] : [];
  return [...assignments, ...[invocation.file, ...invocation.args].map(shellQuote), ...fd3].join(' ');
}
