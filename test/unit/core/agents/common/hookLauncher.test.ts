import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { agentHookCommand } from '../../../../../src/core/agents/common/hookCommand';
import { isOurCommand } from '../../../../../src/core/userHooks/ourHookCommand';
import { ensureHookLauncher, hookLauncherPath, hookLauncherText, nodeLauncherFiles, type LauncherFiles } from '../../../../../src/core/agents/common/hookLauncher';
import { AGENTS } from '../../../../../src/core/agents/registry';
import { residentEndpointPath, STDERR_MARKER } from '../../../../../src/core/agents/common/residentProtocol';
import { finished, type Finished } from '../../../../support/childProcesses';
import { removeTree } from '../../../../support/removeTree';
import { startStandInResident, standInReply, type StandInResident } from '../../../../support/standInResident';

/** The launcher's file system in memory: what was written, with which mode. */
function memoryFiles(): LauncherFiles & { files: Map<string, { text: string; mode: number }>; writes: number } {
  const files = new Map<string, { text: string; mode: number }>();
  const port = {
    files,
    writes: 0,
    read: async (file: string) => files.get(file),
    write: async (file: string, text: string, mode: number) => {
      port.writes++;
      files.set(file, { text, mode });
    },
  };
  return port;
}

/** node and the system's tools, and no `governor`: a machine where no CLI is installed. */
const NO_GOVERNOR_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

describe('the hook launcher (<governor home>/bin/governor-hook)', () => {
  it('lives in the governor home: INTENT_GOVERNOR_HOME, else ~/.intent-governor', () => {
    assert.equal(hookLauncherPath({ INTENT_GOVERNOR_HOME: '/g' }), '/g/bin/governor-hook');
    assert.equal(hookLauncherPath({ HOME: '/home/me' }), '/home/me/.intent-governor/bin/governor-hook');
  });

  it('is written once, left alone while it runs this bundle, rewritten when it points elsewhere or lost its mode', async () => {
    const port = memoryFiles();
    const env = { INTENT_GOVERNOR_HOME: '/g' };
    assert.deepEqual(await ensureHookLauncher(env, '/ext/0.1.0/dist/hook.js', port), { file: '/g/bin/governor-hook', action: 'written' });
    assert.deepEqual(await ensureHookLauncher(env, '/ext/0.1.0/dist/hook.js', port), { file: '/g/bin/governor-hook', action: 'unchanged' });
    assert.deepEqual(await ensureHookLauncher(env, '/ext/0.2.0/dist/hook.js', port), { file: '/g/bin/governor-hook', action: 'written' }, 'a new version of the extension');
    port.files.set('/g/bin/governor-hook', { text: port.files.get('/g/bin/governor-hook')?.text ?? '', mode: 0o644 });
    assert.equal((await ensureHookLauncher(env, '/ext/0.2.0/dist/hook.js', port)).action, 'written', 'not executable any more');
    assert.equal(port.writes, 4, 'the launcher and its resident client, then the launcher three times');
    assert.equal(port.files.get('/g/bin/governor-hook.bash')?.mode, 0o644, 'the client is sourced, never run');
  });

  describe('on disk', () => {
    let temp: string;
    beforeEach(() => {
      temp = realpathSync(mkdtempSync(join(tmpdir(), 'ig-launcher-')));
    });
    afterEach(() => removeTree(temp));

    it('is 0755 whatever the umask, and runs the bundle with node and every argument, stdin handed on (a path with a space and a quote)', async () => {
      const bundle = join(temp, "the team's tools", 'dist', 'hook.js');
      mkdirSync(dirname(bundle), { recursive: true });
      writeFileSync(bundle, "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>console.log(JSON.stringify({args:process.argv.slice(2),stdin:s})));");
      const env = { INTENT_GOVERNOR_HOME: join(temp, 'home') };
      const old = process.umask(0o077);
      try {
        await ensureHookLauncher(env, bundle, nodeLauncherFiles);
      } finally {
        process.umask(old);
      }
      const launcher = hookLauncherPath(env);
      assert.equal(statSync(launcher).mode & 0o777, 0o755);
      const run = spawnSync(launcher, ['hook', 'gemini', '--timeout-ms', '5'], { input: '{"x":1}', encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { args: ['hook', 'gemini', '--timeout-ms', '5'], stdin: '{"x":1}' });
    });

    it('refuses (exit 127, the reason on stderr) when its bundle is gone and no other governor is installed, or node is not on PATH', async () => {
      const env = { INTENT_GOVERNOR_HOME: join(temp, 'home') };
      await ensureHookLauncher(env, join(temp, 'gone', 'hook.js'), nodeLauncherFiles);
      const gone = spawnSync(hookLauncherPath(env), ['hook', 'gemini'], { input: '{}', encoding: 'utf8', env: { HOME: join(temp, 'user'), PATH: NO_GOVERNOR_PATH } });
      assert.equal(gone.status, 127);
      assert.match(gone.stderr, /points at .*gone\/hook\.js, which is not there any more, and no other Intent Governor was found \(no extension under ~\/\.vscode\/extensions, .*no governor on PATH\)\. Start VS Code with the Intent Governor extension \(it rewrites the launcher\) or run governor hooks install/);
      writeFileSync(join(temp, 'hook.js'), '');
      await ensureHookLauncher(env, join(temp, 'hook.js'), nodeLauncherFiles);
      const noNode = spawnSync(hookLauncherPath(env), ['hook', 'gemini'], { input: '{}', encoding: 'utf8', env: { PATH: join(temp, 'empty') } });
      assert.equal(noNode.status, 127);
      assert.match(noNode.stderr, /node is not on the PATH its hook runs with/);
    });
  });

  describe('when the copy it was written for is gone (another project removed it)', () => {
    let temp: string;
    let user: string;
    beforeEach(() => {
      temp = realpathSync(mkdtempSync(join(tmpdir(), 'ig-launcher-')));
      user = join(temp, 'user');
    });
    afterEach(() => removeTree(temp));

    /** A hook bundle that says which copy it is, with its arguments and stdin. */
    function copy(bundle: string, name: string): string {
      mkdirSync(dirname(bundle), { recursive: true });
      writeFileSync(bundle, `let s='';process.stdin.on('data',c=>s+=c).on('end',()=>console.log(JSON.stringify({copy:${JSON.stringify(name)},args:process.argv.slice(2),stdin:s})));`);
      return bundle;
    }

    /** The launcher written for copy A, then A deleted, as `npm start`'s advice to start over does. */
    function launcherForDeletedCopy(bash: string | null): string {
      const a = copy(join(temp, 'demo', 'extensions', 'intent-governor.intent-governor-0.1.0', 'dist', 'hook.js'), 'A');
      const launcher = join(temp, 'home', 'bin', 'governor-hook');
      mkdirSync(dirname(launcher), { recursive: true });
      writeFileSync(launcher, hookLauncherText(a, bash), { mode: 0o755 });
      rmSync(join(temp, 'demo'), { recursive: true });
      return launcher;
    }

    const run = (launcher: string, PATH = NO_GOVERNOR_PATH) => spawnSync(launcher, ['hook', 'claude'], { input: '{"tool_name":"Write"}', encoding: 'utf8', env: { HOME: user, PATH } });

    for (const bash of ['/bin/bash', null] as const) {
      it(`runs the newest installed extension, whichever editor installed it (${bash ?? 'sh'})`, () => {
        const launcher = launcherForDeletedCopy(bash);
        copy(join(user, '.vscode', 'extensions', 'intent-governor.intent-governor-0.9.0', 'dist', 'hook.js'), '0.9.0');
        copy(join(user, '.vscode-server', 'extensions', 'intent-governor.intent-governor-0.10.0', 'dist', 'hook.js'), '0.10.0');
        copy(join(user, '.local', 'share', 'code-server', 'extensions', 'intent-governor.intent-governor-0.2.1', 'dist', 'hook.js'), '0.2.1');
        const answer = run(launcher);
        assert.equal(answer.status, 0, answer.stderr);
        assert.deepEqual(JSON.parse(answer.stdout), { copy: '0.10.0', args: ['hook', 'claude'], stdin: '{"tool_name":"Write"}' }, 'by version, not by name: 0.10.0 is newer than 0.9.0');
      });
    }

    it('with no extension installed, runs the hook bundle beside the governor CLI on PATH (through its npm link)', () => {
      const launcher = launcherForDeletedCopy('/bin/bash');
      const cli = join(temp, 'lib', 'node_modules', 'intent-governor', 'dist', 'cli.js');
      copy(join(dirname(cli), 'hook.js'), 'cli');
      writeFileSync(cli, '');
      mkdirSync(join(temp, 'bin'));
      symlinkSync(cli, join(temp, 'bin', 'governor'));
      const answer = run(launcher, `${join(temp, 'bin')}:${NO_GOVERNOR_PATH}`);
      assert.equal(answer.status, 0, answer.stderr);
      assert.equal((JSON.parse(answer.stdout) as { copy: string }).copy, 'cli');
    });

    it('keeps running the copy it was written for while that exists, an installed extension beside it', () => {
      const b = copy(join(temp, 'clone', 'dist', 'hook.js'), 'B');
      copy(join(user, '.vscode', 'extensions', 'intent-governor.intent-governor-9.0.0', 'dist', 'hook.js'), '9.0.0');
      const launcher = join(temp, 'home', 'bin', 'governor-hook');
      mkdirSync(dirname(launcher), { recursive: true });
      writeFileSync(launcher, hookLauncherText(b), { mode: 0o755 });
      assert.equal((JSON.parse(run(launcher).stdout) as { copy: string }).copy, 'B');
    });

    it('refuses, naming what to do, once every copy is gone and no governor is on PATH', () => {
      const launcher = launcherForDeletedCopy('/bin/bash');
      const answer = run(launcher);
      assert.equal(answer.status, 127, 'the installed commands turn 127 into each agent’s block');
      assert.equal(answer.stdout, '');
      assert.match(answer.stderr, /no other Intent Governor was found .*Start VS Code with the Intent Governor extension \(it rewrites the launcher\) or run governor hooks install/);
    });
  });

  describe('talking to a resident (a stand-in server on loopback)', () => {
    let temp: string;
    let resident: StandInResident;
    let launcher: string;
    let ws: string;
    let env: NodeJS.ProcessEnv;
    beforeEach(async () => {
      temp = realpathSync(mkdtempSync(join(tmpdir(), 'ig-launcher-')));
      ws = join(temp, 'ws');
      mkdirSync(join(ws, '.orchestration'), { recursive: true });
      // The Node hook the launcher falls back to says so, so a test sees which one answered.
      const bundle = join(temp, 'hook.js');
      writeFileSync(bundle, `let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{require('fs').writeFileSync(${JSON.stringify(join(temp, 'node-hook-input'))},s);console.log('the Node hook decided')});`);
      env = { ...process.env, INTENT_GOVERNOR_HOME: join(temp, 'home'), INTENT_GOVERNOR_RESIDENT: 'on' };
      await ensureHookLauncher(env, bundle, nodeLauncherFiles);
      launcher = hookLauncherPath(env);
      resident = await startStandInResident();
      const endpoint = residentEndpointPath(env.INTENT_GOVERNOR_HOME as string, ws);
      mkdirSync(dirname(endpoint), { recursive: true });
      writeFileSync(endpoint, `${resident.port} token ${process.pid}\n`);
    });
    afterEach(async () => {
      await resident.close();
      await removeTree(temp);
    });
    const call = () => new Promise<Finished>((resolve) => {
      const child = spawn(launcher, ['hook', 'gemini', '--timeout-ms', '3000'], { cwd: ws, env, stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin.end('{"hook_event_name":"BeforeTool","text":"naïve ✓"}\n');
      void finished(child).then(resolve);
    });
    const reply = standInReply;

    it('passes on a whole answer: its stdout, its stderr and its exit code', async () => {
      resident.answer = reply(`2\n{"decision":"deny","reason":"naïve ✓"}\n${STDERR_MARKER}\nrefused here.`);
      const run = await call();
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '{"decision":"deny","reason":"naïve ✓"}');
      assert.equal(run.stderr, 'refused here');
    });

    it('never passes on an answer cut short (the resident died while writing it): the Node hook decides', async () => {
      for (const cut of [reply('0\n{"decision":"de', 200), reply(`0\n{"decision":"allow"}\n${STDERR_MARKER}\n`, 200), reply('0\n{"reason":"x.', 200)]) {
        resident.answer = cut;
        const run = await call();
        assert.equal(run.stdout.trim(), 'the Node hook decided', JSON.stringify(cut));
      }
    });

    it("an endpoint left by a resident that is gone, its port now another program's that never answers: the Node hook decides, with no wait", async () => {
      resident.answer = '';
      const gone = spawnSync(process.execPath, ['-e', '0']).pid;
      writeFileSync(residentEndpointPath(env.INTENT_GOVERNOR_HOME as string, ws), `${resident.port} token ${gone}\n`);
      const started = performance.now();
      const run = await call();
      assert.equal(run.stdout.trim(), 'the Node hook decided', run.stderr);
      assert.ok(performance.now() - started < 3_000, 'the launcher did not wait for the stranger to answer');
      assert.equal(resident.requests.length, 0, 'nothing was sent to the program on the port');
    });

    describe('sourced by the installed command in a bash hook shell (no launcher process)', () => {
      const input = '{"hook_event_name":"BeforeTool","text":"naïve ✓"}\n';
      const command = (agent: string, timeoutMs = 110_000) => agentHookCommand(AGENTS.find((a) => a.id === agent)!.dialect, '/unused', 'linux').replaceAll('--timeout-ms 110000', `--timeout-ms ${timeoutMs}`);
      const run = (shell: string, text: string) => new Promise<Finished>((resolve) => {
        const child = spawn(shell, ['-c', text], { cwd: ws, env, stdio: ['pipe', 'pipe', 'pipe'] });
        child.stdin.end(input);
        void finished(child).then(resolve);
      });
      /** The launcher as a process says so on stderr before it runs as it would. */
      const markLauncher = () => writeFileSync(launcher, readFileSync(launcher, 'utf8').replace('\nhook=', '\necho "the launcher ran" >&2\nhook='));

      it('passes on a whole answer from the shell itself; sh runs the launcher instead', async () => {
        markLauncher();
        resident.answer = reply(`2\n\n${STDERR_MARKER}\nrefused here.`);
        const bash = await run('/bin/bash', command('gemini'));
        assert.equal(bash.code, 2, bash.stderr);
        assert.equal(bash.stderr, 'refused here', 'no launcher process, no wrapping');
        const sh = await run('/bin/sh', command('gemini'));
        assert.equal(sh.code, 2, sh.stderr);
        assert.equal(sh.stderr, 'the launcher ran\nrefused here\n');
      });

      it('a resident that does not answer in time is the agent’s own block (Copilot CLI’s JSON deny), never an allow', async () => {
        resident.answer = '';
        const copilot = await run('/bin/bash', command('copilot', 1000));
        assert.equal(copilot.code, 0, copilot.stderr);
        const deny = JSON.parse(copilot.stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;
        assert.equal(deny.permissionDecision, 'deny');
        assert.match(String(deny.permissionDecisionReason), /its resident governor \(pid \d+\) did not answer within 2 s, so this call is refused/);
        const gemini = await run('/bin/bash', command('gemini', 1000));
        assert.equal(gemini.code, 2);
        assert.match(gemini.stderr, /did not answer within 2 s/);
      });

      it('an answer cut short: the input goes to the launcher whole and the Node hook decides', async () => {
        markLauncher();
        resident.answer = reply('0\n{"decision":"de', 200);
        const cut = await run('/bin/bash', command('gemini'));
        assert.equal(cut.stdout.trim(), 'the Node hook decided', cut.stderr);
        assert.match(cut.stderr, /the launcher ran/);
        assert.equal(readFileSync(join(temp, 'node-hook-input'), 'utf8'), input);
      });

      it('no resident: the client reads nothing and the launcher decides', async () => {
        // The endpoint's port closed; another stand-in for afterEach to close.
        await resident.close();
        resident = await startStandInResident();
        const none = await run('/bin/bash', command('gemini'));
        assert.equal(none.stdout.trim(), 'the Node hook decided', none.stderr);
        assert.equal(readFileSync(join(temp, 'node-hook-input'), 'utf8'), input);
      });
    });
  });

  it('its text names the bundle and nothing else of this machine', () => {
    for (const [bash, shebang] of [['/bin/bash', /^#!\/bin\/bash\n/], [null, /^#!\/bin\/sh\n/]] as const) {
      const text = hookLauncherText('/opt/ig/dist/hook.js', bash);
      assert.match(text, shebang);
      assert.match(text, /^hook='\/opt\/ig\/dist\/hook\.js'$/m);
      assert.match(text, /^exec node "\$hook" "\$@"$/m);
    }
  });
});

describe('our hook command is recognised in every form', () => {
  it("this version's (the launcher) for every agent, and the older `node \"…/hook.js\" hook <agent>` ones, so reinstall and uninstall replace them", () => {
    for (const agent of AGENTS) assert.ok(isOurCommand(agentHookCommand(agent.dialect, '/x/hook.js', 'linux')), agent.id);
    for (const old of ['node "/x/dist/hook.js" hook claude --timeout-ms 110000', 'node "/x/hook.js" hook gemini --timeout-ms 110000 || exit 2', `node "/x/hook.js" hook copilot --timeout-ms 110000 || echo '{"permissionDecision":"deny"}'`]) assert.ok(isOurCommand(old), old);
    assert.ok(isOurCommand(agentHookCommand(AGENTS[0].dialect, '/x/hook.js', 'win32')), 'Windows: the old form');
    for (const theirs of ['./lint.sh', 'node lint.js hook claude', 'ig_l=/tmp/x; "$ig_l" hook claude', 'echo hook claude', undefined, 3]) assert.equal(isOurCommand(theirs), false, String(theirs));
  });
});
