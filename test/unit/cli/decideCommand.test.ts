import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { contentHash } from '../../../src/core/contentHash';
import { bundledScript } from '../../support/bundledScript';
import { finished, type Finished } from '../../support/childProcesses';
import { createHarness, type Harness } from '../../support/governorHarness';

/** Runs `governor decide` as a real process with `stdin` piped in. */
function decide(workspace: string, stdin: string, args: string[] = []): Promise<Finished> {
  const cli = bundledScript(join(__dirname, '..', '..', '..', 'src', 'cli', 'main.ts'));
  const child = spawn(process.execPath, [cli, 'decide', '--workspace', workspace, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(stdin);
  return finished(child);
}

describe('governor decide', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export {};\n' } });
  });
  after(() => h.dispose());

  const cases: Array<[string, object, string, string | null]> = [
    ['an in-scope new file', { tool: 'write_file', input: { path: 'src/auth/new.ts', content: 'x' }, session_id: 's', intent_id: 'auth-refactor' }, 'allow', null],
    ['an out-of-scope write', { tool: 'write_file', input: { path: 'src/billing/a.ts', content: 'x' }, session_id: 's', intent_id: 'auth-refactor' }, 'deny', 'SCOPE_VIOLATION'],
    ['a write with no intent', { tool: 'write_file', input: { path: 'src/auth/new.ts', content: 'x' }, session_id: 's' }, 'deny', 'NO_ACTIVE_INTENT'],
    ['a delete based on the current hash (needs a human)', { tool: 'delete_file', input: { path: 'src/auth/login.ts', expected_content_hash: contentHash('export {};\n') }, session_id: 's', intent_id: 'auth-refactor' }, 'ask', null],
    ['a delete based on an old hash', { tool: 'delete_file', input: { path: 'src/auth/login.ts', expected_content_hash: contentHash('old\n') }, session_id: 's', intent_id: 'auth-refactor' }, 'deny', 'STALE_FILE'],
    ['a destructive command', { tool: 'run_command', input: { command: 'rm -rf src/auth' }, session_id: 's', intent_id: 'auth-refactor' }, 'ask', null],
    ['an inactive intent', { tool: 'write_file', input: { path: 'docs/a.md', content: 'x' }, session_id: 's', intent_id: 'docs' }, 'deny', 'INTENT_NOT_ACTIVE'],
  ];
  for (const [what, call, decision, code] of cases) {
    it(`prints ${decision}${code ? ` ${code}` : ''} for ${what} and exits 0`, async () => {
      const run = await decide(h.root, JSON.stringify(call));
      assert.equal(run.code, 0, run.stderr);
      const answer = JSON.parse(run.stdout);
      assert.equal(answer.decision, decision, answer.message);
      assert.equal(answer.code, code);
      if (decision !== 'allow') assert.ok(String(answer.message).length > 10);
    });
  }

  it('writes nothing, even for an allowed call', async () => {
    await decide(h.root, JSON.stringify(cases[0][1]));
    const read = await h.call('read_file', { path: 'src/auth/new.ts' });
    assert.equal(read.ok, false);
  });

  it('refuses input it cannot read instead of allowing it', async () => {
    for (const stdin of ['', 'not json', '[]', '{"input":{}}']) {
      const run = await decide(h.root, stdin);
      assert.equal(run.code, 0);
      const answer = JSON.parse(run.stdout);
      assert.equal(answer.decision, 'deny', stdin);
      assert.equal(answer.code, 'INVALID_INPUT');
    }
  });

  it('exits 2 with a clear message when the workspace does not exist', async () => {
    const run = await decide('/nonexistent/ig-workspace', '{}');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /not a directory/);
  });

  it('explains itself with --help', async () => {
    const run = await decide(h.root, '', ['--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /Usage: governor decide/);
  });
});
