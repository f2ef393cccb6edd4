// Shows what the governor decides for typical agent tool calls against demo/workspace, using the
// bundled `governor decide` command exactly as a user would (nothing is written).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const workspace = join(here, 'workspace');
const cli = join(here, '..', 'dist', 'cli.js');
const loginHash = `sha256:${createHash('sha256').update(readFileSync(join(workspace, 'src/auth/login.ts'))).digest('hex')}`;

const calls = [
  ['write before choosing an intent', { tool: 'write_file', input: { path: 'src/auth/token.ts', content: 'export {};' } }],
  ['new file inside the intent', { tool: 'write_file', input: { path: 'src/auth/token.ts', content: 'export {};' }, intent_id: 'auth-refactor' }],
  ['write outside the owned scope', { tool: 'write_file', input: { path: 'src/billing/invoice.ts', content: '' }, intent_id: 'auth-refactor' }],
  ['overwrite without reading first', { tool: 'write_file', input: { path: 'src/auth/login.ts', content: '' }, intent_id: 'auth-refactor' }],
  ['overwrite based on the current hash', { tool: 'write_file', input: { path: 'src/auth/login.ts', content: '', expected_content_hash: loginHash }, intent_id: 'auth-refactor' }],
  ['edit the intents file', { tool: 'write_file', input: { path: '.orchestration/active_intents.yaml', content: '' }, intent_id: 'auth-refactor' }],
  ['escape the workspace', { tool: 'write_file', input: { path: '../../etc/passwd', content: '' }, intent_id: 'auth-refactor' }],
  ['delete a file (a human decides)', { tool: 'delete_file', input: { path: 'src/auth/login.ts', expected_content_hash: loginHash }, intent_id: 'auth-refactor' }],
  ['read-only command', { tool: 'run_command', input: { command: 'git status && ls src | grep auth' }, intent_id: 'auth-refactor' }],
  ['destructive command', { tool: 'run_command', input: { command: 'rm -rf src/auth/old' }, intent_id: 'auth-refactor' }],
  ['wrapped privilege escalation', { tool: 'run_command', input: { command: "bash -c 'sudo rm -rf /'" }, intent_id: 'auth-refactor' }],
  ['planned (not started) intent', { tool: 'write_file', input: { path: 'src/billing/x.ts', content: '' }, intent_id: 'billing-cleanup' }],
];

/** The message's words in lines of at most `width` characters, never cut inside a word. */
function wrap(text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

console.log(`Intent Governor demo: decisions for ${workspace}\n`);
for (const [what, call] of calls) {
  const run = spawnSync(process.execPath, [cli, 'decide', '--workspace', workspace], { input: JSON.stringify({ session_id: 'demo', ...call }), encoding: 'utf8' });
  if (run.status !== 0) {
    console.error(run.stderr);
    process.exit(1);
  }
  const answer = JSON.parse(run.stdout);
  const verdict = `${answer.decision.toUpperCase()}${answer.code ? ` ${answer.code}` : ''}`;
  console.log(`${what.padEnd(38)} ${verdict}`);
  if (answer.message) for (const line of wrap(answer.message.split('\n')[0], 100)) console.log(`${' '.repeat(39)}${line}`);
}
console.log('\nTry your own: echo \'{"tool":"read_file","input":{"path":"src/auth/login.ts"}}\' | node dist/cli.js decide --workspace demo/workspace');
