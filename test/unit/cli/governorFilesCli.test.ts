import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { bundledScript } from '../../support/bundledScript';
import { finished } from '../../support/childProcesses';
import { createHarness, type Harness } from '../../support/governorHarness';
import { runGovernor } from '../../support/runGovernor';
import { runHook } from '../../support/runHook';

/**
 * The governor's own files (its signing key first) are refused to an agent's command by what a path resolves to,
 * not by how it is spelled: real `governor decide` and `governor hook claude` processes, where nobody is asked,
 * against a private HOME holding a signing key made by `governor keys init`.
 */
describe('an agent cannot read the governor’s own files, however the command spells them', function () {
  this.timeout(60_000);
  let h: Harness;
  let base: string;
  let home: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export {};\n', 'README.md': '# sample\n' } });
    base = await realpath(await mkdtemp(join(tmpdir(), 'ig-govfiles-')));
    home = join(base, 'home');
    await mkdir(home);
    // The governor's home is ~/.intent-governor: no INTENT_GOVERNOR_HOME, as on a user's machine.
    env = { HOME: home, INTENT_GOVERNOR_HOME: '', INTENT_GOVERNOR_ANCHOR_DIR: join(base, 'anchors') };
    const made = await runGovernor(['keys', 'init', '--name', 'alice', '--workspace', h.root], { anchorDir: join(base, 'anchors'), home, env });
    assert.equal(made.code, 0, made.stderr);
    assert.match(await readFile(join(home, '.intent-governor', 'keys', 'signer.json'), 'utf8'), /PRIVATE/, 'the key the commands below would print');
    // A link in the workspace that leads into the governor's home (made by a person: an agent's `ln` is refused).
    await symlink(join(home, '.intent-governor'), join(h.root, 'src', 'auth', 'gov'));
  });
  after(async () => {
    await h.dispose();
    await rm(base, { recursive: true, force: true });
  });

  /** `governor decide` for run_command, as a hook bridge or a person runs it. */
  async function decide(command: string): Promise<{ decision: string; code: string | null; message: string | null }> {
    const cli = bundledScript(join(__dirname, '..', '..', '..', 'src', 'cli', 'main.ts'));
    const child = spawn(process.execPath, [cli, 'decide', '--workspace', h.root], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(JSON.stringify({ tool: 'run_command', input: { command }, session_id: 's', intent_id: 'auth-refactor' }));
    const run = await finished(child);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout);
  }

  const refused = [
    // The three reported spellings.
    'grep -r PRIVATE ~/.intent-governor',
    'grep -rI "BEGIN PRIVATE" ~ --include=*.json',
    'cat ~/.intent-gov*/k*/s*.json',
    // $HOME and ${HOME}, a search of the whole home, and an absolute glob.
    'grep -r PRIVATE "$HOME"',
    'cat ${HOME}/.intent-gov*/keys/signer.json',
    'rg PRIVATE ~',
    'find ~ -name "*.json" -exec cat {} +',
    'tar c ~ | strings',
    'cat ~/.intent-governor/run/*',
  ];
  for (const command of refused) {
    it(`refuses ${command}`, async () => {
      const answer = await decide(command);
      assert.equal(answer.decision, 'deny', answer.message ?? '');
      assert.equal(answer.code, 'COMMAND_DENIED');
      assert.match(answer.message ?? '', /the governor's own files .* are not for agents; a person manages them at a terminal \(governor keys …/);
    });
  }

  it('refuses an absolute glob, a relative path climbing out with .., and a link in the workspace into the home', async () => {
    const relative = join('..', basename(base), 'home', '.intent-governor', 'keys', 'signer.json');
    for (const command of [`cat ${home}/.*/keys/*`, `cat ${relative}`, 'cat src/auth/gov/keys/signer.json', 'cat src/auth/gov/k*/*.json', 'grep -r PRIVATE src/auth/gov', `cd src && cat ../${relative}`]) {
      const answer = await decide(command);
      assert.equal(answer.decision, 'deny', `${command}: ${answer.message}`);
      assert.match(answer.message ?? '', /in (the trace signing keys|the governor's home)/, command);
    }
  });

  it('refuses a link an agent would make to the home', async () => {
    const answer = await decide('ln -s ~ src/auth/h');
    assert.equal(answer.decision, 'deny', answer.message ?? '');
    assert.match(answer.message ?? '', /a folder holding the governor's home/);
  });

  it('asks (so, with nobody to ask, does not run) where the path is only known at run time', async () => {
    const answer = await decide('read f; cat "$f"');
    assert.notEqual(answer.decision, 'allow', answer.message ?? '');
    assert.match(answer.message ?? '', /only known at run time/);
  });

  it('still allows ordinary reads and searches of the workspace, which does not hold the home', async () => {
    for (const command of ['grep -r foo src', 'cat README.md', "find . -name '*.ts'", 'grep -r PRIVATE .', 'rg PRIVATE', 'cat src/*/*.ts', 'ls ~']) {
      const answer = await decide(command);
      assert.equal(answer.decision, 'allow', `${command}: ${answer.message}`);
    }
  });

  it('the Claude Code hook door refuses the same commands before Bash runs them', async () => {
    for (const command of refused.slice(0, 3)) {
      const payload = { session_id: 'abc123', cwd: h.root, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 'toolu_1', tool_input: { command } };
      const run = await runHook('claude', JSON.stringify(payload), ['--intent', 'auth-refactor'], env);
      assert.equal(run.code, 0, run.stderr);
      const answer = JSON.parse(run.stdout).hookSpecificOutput;
      assert.equal(answer.permissionDecision, 'deny', `${command}: ${run.stdout}`);
      assert.match(answer.permissionDecisionReason, /the governor's own files/);
    }
  });
});
