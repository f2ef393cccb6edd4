/** Lines a Node.js crash prints around its error that say nothing a person can act on. */
const NOISE = [/^Node\.js v\d/u, /^[{}[\]^]+$/u, /^\s+at /u, /^node:internal\//u, /^\s*throw /u, /^\s+\w+: /u];

/**
 * What a server's stderr says went wrong, in one line for the doctor's report: the error lines of a crash
 * (`Error: Cannot find module '/x/dist/cli.js'`), else its last meaningful lines, never the `}` and `Node.js v22`
 * that end a Node.js stack trace.
 */
export function stderrGist(stderr: string, max = 3): string {
  const lines = stderr.split('\n').map((line) => line.trimEnd()).filter((line) => line.trim() !== '');
  const errors = lines.filter((line) => /^(\w+)?Error\b|^Error:|^\w+Error:/u.test(line.trim()));
  if (errors.length > 0) return errors.slice(0, max).join(' | ');
  const meaningful = lines.filter((line) => !NOISE.some((noise) => noise.test(line)));
  return (meaningful.length > 0 ? meaningful : lines).slice(-max).join(' | ');
}
