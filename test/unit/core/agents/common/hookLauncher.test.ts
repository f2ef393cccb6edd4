import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { mkdirSync, mkdtempSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { agentHookCommand } from '../../../../../src/core/agents/common/hookCommand';
import { isOurCommand } from '../../../../../src/core/userHooks/ourHookCommand';
import { ensureHookLauncher, hookLauncherPath, hookLauncherText, nodeLauncherFiles, type LauncherFiles } from '../../../../../src/core/agents/common/hookLauncher';
import { AGENTS } from '../../../../../src/core/agents/registry';
import { residentEndpointPath, STDERR_MARKER } from '../../../../../src/core/agents/common/residentProtocol';
import { finished, type Finished } from '../../../../support/childProcesses';
import { removeTree } from '../../../../support/removeTree';

/** The launcher's file system in memory: what was written, with which mode. */
function memoryFiles(): LauncherFiles & { files: Map<string, { text: string; mode: number }>; writes: number } {
  const files = new Map<string, { text: string; mode: number }>();
  const port = {
    files,
    writes: 0,
    read: async (file: string) => files.get(file),
    write: async (file: string, text: string) => {
      port.writes++;
      files.set(file, { text, mode: 0o755 });
    },
  };
  return port;
}

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
    assert.equal(port.writes, 3);
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

    it('refuses (exit 127, the reason on stderr) when its bundle is gone or node is not on PATH', async () => {
      const env = { INTENT_GOVERNOR_HOME: join(temp, 'home') };
      await ensureHookLauncher(env, join(temp, 'gone', 'hook.js'), nodeLauncherFiles);
      const gone = spawnSync(hookLauncherPath(env), ['hook', 'gemini'], { input: '{}', encoding: 'utf8' });
      assert.equal(gone.status, 127);
      assert.match(gone.stderr, /points at .*gone\/hook\.js, which is not there any more\. Start VS Code with the Intent Governor extension \(it rewrites the launcher\) or run governor hooks install/);
      writeFileSync(join(temp, 'hook.js'), '');
      await ensureHookLauncher(env, join(temp, 'hook.js'), nodeLauncherFiles);
      const noNode = spawnSync(hookLauncherPath(env), ['hook', 'gemini'], { input: '{}', encoding: 'utf8', env: { PATH: join(temp, 'empty') } });
      assert.equal(noNode.status, 127);
      assert.match(noNode.stderr, /node is not on the PATH its hook runs with/);
    });
  });

  describe('talking to a resident (a stand-in server on loopback)', () => {
    let temp: string;
    let server: Server;
    let answer: string;
    let launcher: string;
    let ws: string;
    let env: NodeJS.ProcessEnv;
    beforeEach(async () => {
      temp = realpathSync(mkdtempSync(join(tmpdir(), 'ig-launcher-')));
      ws = join(temp, 'ws');
      mkdirSync(join(ws, '.orchestration'), { recursive: true });
      // The Node hook the launcher falls back to says so, so a test sees which one answered.
      const bundle = join(temp, 'hook.js');
      writeFileSync(bundle, "process.stdin.resume().on('end',()=>console.log('the Node hook decided'));");
      env = { ...process.env, INTENT_GOVERNOR_HOME: join(temp, 'home'), INTENT_GOVERNOR_RESIDENT: 'on' };
      await ensureHookLauncher(env, bundle, nodeLauncherFiles);
      launcher = hookLauncherPath(env);
      // Answers each request, once its body is in, with `answer` as it stands, then closes.
      server = createServer((socket) => {
        let got = '';
        socket.on('data', (chunk) => {
          got += chunk.toString('latin1');
          const head = got.indexOf('\r\n\r\n');
          const length = Number(/content-length: (\d+)/iu.exec(got)?.[1]);
          if (head >= 0 && got.length - head - 4 >= length) socket.end(answer);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const endpoint = residentEndpointPath(env.INTENT_GOVERNOR_HOME as string, ws);
      mkdirSync(dirname(endpoint), { recursive: true });
      writeFileSync(endpoint, `${(server.address() as AddressInfo).port} token ${process.pid}\n`);
    });
    afterEach(async () => {
      await new Promise((resolve) => server.close(resolve));
      await removeTree(temp);
    });
    const call = () => new Promise<Finished>((resolve) => {
      const child = spawn(launcher, ['hook', 'gemini', '--timeout-ms', '3000'], { cwd: ws, env, stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin.end('{"hook_event_name":"BeforeTool","text":"naïve ✓"}\n');
      void finished(child).then(resolve);
    });
    const reply = (body: string, length = Buffer.byteLength(body)) => `HTTP/1.1 200 OK\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${body}`;

    it('passes on a whole answer: its stdout, its stderr and its exit code', async () => {
      answer = reply(`2\n{"decision":"deny","reason":"naïve ✓"}\n${STDERR_MARKER}\nrefused here.`);
      const run = await call();
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '{"decision":"deny","reason":"naïve ✓"}');
      assert.equal(run.stderr, 'refused here');
    });

    it('never passes on an answer cut short (the resident died while writing it): the Node hook decides', async () => {
      for (const cut of [reply('0\n{"decision":"de', 200), reply(`0\n{"decision":"allow"}\n${STDERR_MARKER}\n`, 200), reply('0\n{"reason":"x.', 200)]) {
        answer = cut;
        const run = await call();
        assert.equal(run.stdout.trim(), 'the Node hook decided', JSON.stringify(cut));
      }
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
