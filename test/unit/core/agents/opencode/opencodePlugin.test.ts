import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { applyHookConfig } from '../../../../../src/core/agents/agentHooks';
import { ensureHookLauncher } from '../../../../../src/core/agents/common/hookLauncher';
import { residentEndpointPath, STDERR_MARKER } from '../../../../../src/core/agents/common/residentProtocol';
import { OPENCODE_PLUGIN_MARKER, opencodePluginText } from '../../../../../src/core/agents/opencode/opencodePlugin';
import { bundledScript } from '../../../../support/bundledScript';
import { SAMPLE_INTENTS } from '../../../../support/governorHarness';
import { startStandInResident, standInReply, type StandInResident } from '../../../../support/standInResident';

type Hook = (input: Record<string, unknown>, output: Record<string, unknown>) => Promise<void>;
interface LoadedPlugin {
  'experimental.chat.system.transform': Hook;
  'tool.execute.before': Hook;
  'tool.execute.after': Hook;
}

/**
 * The plugin `governor hooks install --agent opencode` writes, loaded as OpenCode loads it (a module whose export
 * is the plugin function) and run under plain Node, with real hook processes behind it.
 */
describe('OpenCode plugin', () => {
  let temp: string;
  let ws: string;
  let count = 0;
  const savedHome = process.env.INTENT_GOVERNOR_HOME;

  beforeEach(() => {
    temp = realpathSync(mkdtempSync(join(tmpdir(), 'ig-opencode-plugin-')));
    ws = join(temp, 'ws');
    mkdirSync(ws);
    // The plugin finds the launcher where the hook processes of this user find it: INTENT_GOVERNOR_HOME here.
    process.env.INTENT_GOVERNOR_HOME = join(temp, 'governor-home');
  });
  afterEach(() => {
    if (savedHome === undefined) delete process.env.INTENT_GOVERNOR_HOME;
    else process.env.INTENT_GOVERNOR_HOME = savedHome;
    rmSync(temp, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  /** Our plugin, imported as a fresh module, with the user's launcher pointed at `hookScript` (none: no launcher). */
  const load = async (hookScript: string | undefined, timeoutMs?: number): Promise<LoadedPlugin> => {
    if (hookScript !== undefined) await ensureHookLauncher(process.env, hookScript);
    const file = join(temp, `plugin-${++count}.mjs`);
    writeFileSync(file, opencodePluginText(timeoutMs));
    const module = (await import(pathToFileURL(file).href)) as Record<string, (ctx: object) => Promise<LoadedPlugin>>;
    assert.deepEqual(Object.keys(module), ['IntentGovernor'], 'OpenCode calls every export as a plugin: only the plugin is exported');
    return module.IntentGovernor({ directory: ws, worktree: ws });
  };
  /** A stand-in hook process: a Node script that reads stdin and then runs `body` (with `input` parsed). */
  const hookScript = (body: string): string => {
    const file = join(temp, `hook-${++count}.cjs`);
    writeFileSync(file, `let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const input=JSON.parse(s);require('fs').writeFileSync(${JSON.stringify(join(temp, 'last-input.json'))}, s);${body}});`);
    return file;
  };
  const before = (plugin: LoadedPlugin, args: Record<string, unknown>) => {
    const output = { args };
    return plugin['tool.execute.before']({ tool: 'write', sessionID: 'ses_1', callID: 'call_1' }, output).then(() => output);
  };

  it('hands the hook process the call in the dialect it reads, and lets an allowed call run', async () => {
    const plugin = await load(hookScript(`console.log(JSON.stringify({decision:'allow'}))`));
    const output = await before(plugin, { filePath: 'a.ts', content: 'x' });
    assert.deepEqual(output.args, { filePath: 'a.ts', content: 'x' });
    assert.deepEqual(JSON.parse(readFileSync(join(temp, 'last-input.json'), 'utf8')), {
      event: 'tool.execute.before', sessionID: 'ses_1', callID: 'call_1', tool: 'write', args: { filePath: 'a.ts', content: 'x' }, directory: ws, worktree: ws,
    });
  });

  it("runs the args a user hook rewrote them to: the same object OpenCode handed over, changed in place", async () => {
    const plugin = await load(hookScript(`console.log(JSON.stringify({decision:'allow',args:{filePath:'b.ts',content:'y'}}))`));
    const args = { filePath: 'a.ts', content: 'x', extra: 1 };
    const output = await before(plugin, args);
    assert.equal(output.args, args);
    assert.deepEqual(args, { filePath: 'b.ts', content: 'y' });
  });

  it('throws with the reason on a deny, which OpenCode reports to the model as the tool error', async () => {
    const plugin = await load(hookScript(`console.log(JSON.stringify({decision:'deny',reason:'[SCOPE_VIOLATION] not yours'}))`));
    await assert.rejects(before(plugin, {}), { message: '[SCOPE_VIOLATION] not yours' });
  });

  it('fails closed: a hook that cannot start, crashes, exits non-zero or prints nonsense blocks the call', async () => {
    const cases: [string, RegExp][] = [
      [join(temp, 'missing-hook.js'), /Intent Governor blocked this call: its hook launcher \(.*\) points at .*missing-hook\.js, which is not there any more/s],
      [hookScript(`throw new Error('boom')`), /Intent Governor blocked this call: .*boom/s],
      [hookScript(`console.log(JSON.stringify({decision:'allow'}));process.exit(3)`), /Intent Governor blocked this call: its hook process \(.*governor-hook\) exited with 3 and no answer/],
      [hookScript(`console.log('allow')`), /Intent Governor blocked this call: its hook process \(.*\) exited with 0/],
      [hookScript(`console.log(JSON.stringify({decision:'maybe'}))`), /Intent Governor blocked this call/],
      [hookScript(`console.log(JSON.stringify({decision:'deny'}))`), /Intent Governor blocked this call/],
    ];
    for (const [script, expected] of cases) {
      const plugin = await load(script);
      await assert.rejects(before(plugin, { filePath: 'a.ts', content: 'x' }), expected, script);
    }
  });

  it('fails closed when node itself cannot be found on PATH', async () => {
    const plugin = await load(hookScript(`console.log(JSON.stringify({decision:'allow'}))`));
    const path = process.env.PATH;
    process.env.PATH = join(temp, 'no-bin');
    try {
      await assert.rejects(before(plugin, {}), /Intent Governor blocked this call: node is not on the PATH its hook runs with/);
    } finally {
      process.env.PATH = path;
    }
  });

  it('fails closed, saying what to install, when this user has no launcher (a teammate’s clone on a machine without Intent Governor)', async () => {
    const plugin = await load(undefined);
    await assert.rejects(before(plugin, {}), (error: Error) => {
      assert.match(error.message, /^Intent Governor blocked this call: its hook launcher is not installed for this user\. Install Intent Governor: the VS Code extension writes the launcher/);
      assert.match(error.message, /run governor hooks install in this workspace/);
      assert.ok(error.message.includes(join(temp, 'governor-home', 'bin', 'governor-hook')), error.message);
      return true;
    });
  });

  it('appends what the governor says after a tool ran to the output the model reads', async () => {
    const plugin = await load(hookScript(`console.log(JSON.stringify({decision:'allow',context:'Traced under auth-refactor.'}))`));
    const output = { title: 't', output: 'Wrote file successfully.', metadata: {} };
    await plugin['tool.execute.after']({ tool: 'write', sessionID: 'ses_1', callID: 'call_1', args: { filePath: 'a.ts', content: 'x' } }, output);
    assert.equal(output.output, 'Wrote file successfully.\n\nTraced under auth-refactor.');
    assert.deepEqual(JSON.parse(readFileSync(join(temp, 'last-input.json'), 'utf8')).result, { title: 't', output: 'Wrote file successfully.' });
  });

  it("asks once per session for the intent handshake and adds it to every system prompt of that session; requests without a session get nothing", async () => {
    const calls = join(temp, 'calls.log');
    const plugin = await load(hookScript(`require('fs').appendFileSync(${JSON.stringify(calls)}, input.event + ' ' + input.sessionID + '\\n');console.log(JSON.stringify({decision:'allow',context:'Intent: auth-refactor'}))`));
    const transform = plugin['experimental.chat.system.transform'];
    const first = { system: ['You are OpenCode.'] };
    const second = { system: ['You are OpenCode.'] };
    const title = { system: ['Write a title.'] };
    await transform({ sessionID: 'ses_1', model: {} }, first);
    await transform({ sessionID: 'ses_1', model: {} }, second);
    await transform({ model: {} }, title);
    assert.deepEqual(first.system, ['You are OpenCode.', 'Intent: auth-refactor']);
    assert.deepEqual(second.system, ['You are OpenCode.', 'Intent: auth-refactor']);
    assert.deepEqual(title.system, ['Write a title.']);
    assert.equal(readFileSync(calls, 'utf8'), 'session.start ses_1\n');
  });

  it('with the real hook bundle: an out-of-scope write is refused with SCOPE_VIOLATION, an in-scope one allowed', async () => {
    const src = join(__dirname, '..', '..', '..', '..', '..', 'src', 'cli');
    bundledScript(join(src, 'headlessDecider.ts'), 'hook-headless.js');
    const hook = bundledScript(join(src, 'hookMain.ts'), 'hook.js');
    mkdirSync(join(ws, '.orchestration'));
    writeFileSync(join(ws, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
    // An in-scope write lands without a person (a plugin cannot ask one): the workspace's approval mode says so.
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'intentGovernor.approval': 'destructive-only' }));
    const saved = { ...process.env };
    Object.assign(process.env, { INTENT_GOVERNOR_HOME: join(temp, 'home'), INTENT_GOVERNOR_ANCHOR_DIR: join(temp, 'anchors'), INTENT_GOVERNOR_INTENT: 'auth-refactor' });
    try {
      const plugin = await load(hook);
      await assert.rejects(before(plugin, { filePath: 'src/billing/x.ts', content: 'x' }), /\[SCOPE_VIOLATION\] "src\/billing\/x\.ts" is outside the owned scope of intent auth-refactor/);
      await before(plugin, { filePath: join(ws, 'src/auth/x.ts'), content: 'x' });
    } finally {
      for (const key of ['INTENT_GOVERNOR_HOME', 'INTENT_GOVERNOR_ANCHOR_DIR', 'INTENT_GOVERNOR_INTENT']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });

  describe('asking the resident governor itself (a stand-in server on loopback)', () => {
    let resident: StandInResident;
    let governed: string;
    const saved: Record<string, string | undefined> = {};
    const reply = standInReply;
    const endpointFile = () => residentEndpointPath(process.env.INTENT_GOVERNOR_HOME as string, governed);
    const launcherDecided = () => existsSync(join(temp, 'last-input.json'));

    beforeEach(async () => {
      // A folder whose name is not ASCII: its path travels in a header as the bash client sends it, as raw UTF-8.
      governed = join(ws, 'naïve ✓');
      mkdirSync(join(governed, '.orchestration'), { recursive: true });
      mkdirSync(join(governed, 'src'));
      resident = await startStandInResident();
      mkdirSync(dirname(endpointFile()), { recursive: true });
      writeFileSync(endpointFile(), `${resident.port} the-token ${process.pid}\n`);
      // The cwd OpenCode runs the plugin in (a subfolder of the governed one), and the resident on, as installed.
      for (const key of ['INTENT_GOVERNOR_RESIDENT', 'INTENT_GOVERNOR_INTENT']) saved[key] = process.env[key];
      Object.assign(process.env, { INTENT_GOVERNOR_RESIDENT: 'on', INTENT_GOVERNOR_INTENT: 'auth-refactor' });
      saved.cwd = process.cwd();
      process.chdir(join(governed, 'src'));
    });
    afterEach(async () => {
      process.chdir(saved.cwd as string);
      for (const key of ['INTENT_GOVERNOR_RESIDENT', 'INTENT_GOVERNOR_INTENT']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
      await resident.close();
    });

    it("decides with the resident's whole answer, starting no process: the request is the one the launcher's bash client sends", async () => {
      resident.answer = reply(`0\n{"decision":"allow"}\n${STDERR_MARKER}\n.`);
      const plugin = await load(hookScript(`console.log(JSON.stringify({decision:'deny',reason:'the launcher ran'}))`));
      const output = await before(plugin, { filePath: 'a.ts', content: 'x' });
      assert.deepEqual(output.args, { filePath: 'a.ts', content: 'x' });
      assert.equal(launcherDecided(), false, 'no hook process ran');
      assert.equal(resident.requests.length, 1);
      const [head, body] = resident.requests[0].split('\r\n\r\n');
      const headers = new Map(head.split('\r\n').slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      assert.match(head, /^POST \/agent-hook HTTP\/1\.1\r\n/);
      assert.equal(headers.get('authorization'), 'Bearer the-token');
      assert.equal(headers.get('x-intent-governor-agent'), 'opencode');
      assert.equal(Buffer.from(headers.get('x-intent-governor-cwd') ?? '', 'latin1').toString('utf8'), join(governed, 'src'));
      assert.equal(headers.get('x-intent-governor-timeout-ms'), '110000');
      assert.equal(headers.get('x-intent-governor-env-intent_governor_intent'), 'auth-refactor');
      assert.deepEqual(JSON.parse(Buffer.from(body, 'latin1').toString('utf8')), {
        event: 'tool.execute.before', sessionID: 'ses_1', callID: 'call_1', tool: 'write', args: { filePath: 'a.ts', content: 'x' }, directory: ws, worktree: ws,
      });
    });

    it("throws with the resident's reason on a deny", async () => {
      resident.answer = reply(`0\n{"decision":"deny","reason":"[SCOPE_VIOLATION] naïve ✓ is not yours"}\n${STDERR_MARKER}\n.`);
      const plugin = await load(hookScript(`console.log(JSON.stringify({decision:'allow'}))`));
      await assert.rejects(before(plugin, {}), { message: '[SCOPE_VIOLATION] naïve ✓ is not yours' });
      assert.equal(launcherDecided(), false);
    });

    it('anything short of a whole answer (a folder it does not govern, a reply cut short or malformed) goes to the launcher, whose hook decides', async () => {
      const cases = [
        'HTTP/1.1 421 Misdirected Request\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
        reply('0\n{"decision":"al', 200),
        reply(`0\n{"decision":"allow"}\n${STDERR_MARKER}\n`),
        reply('0\n{"decision":"allow"}.'),
        reply(`7\n{"decision":"allow"}\n${STDERR_MARKER}\n.`),
      ];
      for (const cut of cases) {
        resident.answer = cut;
        rmSync(join(temp, 'last-input.json'), { force: true });
        const plugin = await load(hookScript(`console.log(JSON.stringify({decision:'deny',reason:'the launcher decided'}))`));
        await assert.rejects(before(plugin, {}), { message: 'the launcher decided' }, JSON.stringify(cut));
        assert.ok(launcherDecided(), JSON.stringify(cut));
      }
    });

    it('an endpoint left by a resident that is gone, or INTENT_GOVERNOR_RESIDENT=off: the launcher decides and nothing is sent to the port', async () => {
      const gone = spawnSync(process.execPath, ['-e', '0']).pid;
      writeFileSync(endpointFile(), `${resident.port} the-token ${gone}\n`);
      const plugin = await load(hookScript(`console.log(JSON.stringify({decision:'allow'}))`));
      await before(plugin, {});
      assert.ok(launcherDecided());
      writeFileSync(endpointFile(), `${resident.port} the-token ${process.pid}\n`);
      rmSync(join(temp, 'last-input.json'));
      process.env.INTENT_GOVERNOR_RESIDENT = 'off';
      await before(plugin, {});
      assert.ok(launcherDecided());
      assert.equal(resident.requests.length, 0, 'nothing was sent to the port');
    });

    it('a resident that does not answer in time: the call is refused, never allowed', async () => {
      const plugin = await load(hookScript(`console.log(JSON.stringify({decision:'allow'}))`), 200);
      await assert.rejects(before(plugin, {}), /^Error: Intent Governor blocked this call: the resident governor \(pid \d+\) did not answer within 1\.2 s \(governance fails closed\)\.$/);
      assert.equal(launcherDecided(), false);
    });
  });

  describe('install and uninstall (governor hooks --agent opencode, Install Agent Hooks…)', () => {
    const file = () => join(ws, '.opencode', 'plugins', 'intent-governor.js');

    it('writes our plugin into .opencode/plugins/, naming no path of this machine (it finds the launcher when it loads); a second install changes nothing', async () => {
      assert.deepEqual(await applyHookConfig(ws, 'opencode', 'install', '/opt/ig/dist/hook.js'), [{ agent: 'opencode', file: file(), action: 'written' }]);
      const text = readFileSync(file(), 'utf8');
      assert.ok(text.startsWith(OPENCODE_PLUGIN_MARKER));
      assert.doesNotMatch(text, /\/opt\/ig/);
      assert.match(text, /'bin', 'governor-hook'\)/);
      assert.deepEqual(await applyHookConfig(ws, 'opencode', 'install', '/opt/ig/dist/hook.js'), [{ agent: 'opencode', file: file(), action: 'unchanged' }]);
    });

    it("leaves a plugin of the person's own at our path alone, on install and on uninstall", async () => {
      mkdirSync(join(ws, '.opencode', 'plugins'), { recursive: true });
      writeFileSync(file(), 'export const Mine = async () => ({});\n');
      const [installed] = await applyHookConfig(ws, 'opencode', 'install', '/opt/ig/dist/hook.js');
      assert.equal(installed.action, 'failed');
      assert.match(installed.action === 'failed' ? installed.message : '', /is not Intent Governor's plugin; it was left unchanged/);
      assert.deepEqual(await applyHookConfig(ws, 'opencode', 'uninstall', '/opt/ig/dist/hook.js'), [{ agent: 'opencode', file: file(), action: 'unchanged' }]);
      assert.equal(readFileSync(file(), 'utf8'), 'export const Mine = async () => ({});\n');
    });

    it('uninstall removes only our file', async () => {
      await applyHookConfig(ws, 'opencode', 'install', '/opt/ig/dist/hook.js');
      writeFileSync(join(ws, '.opencode', 'plugins', 'mine.js'), 'export const Mine = async () => ({});\n');
      assert.deepEqual(await applyHookConfig(ws, 'opencode', 'uninstall', '/opt/ig/dist/hook.js'), [{ agent: 'opencode', file: file(), action: 'removed' }]);
      assert.equal(existsSync(file()), false);
      assert.ok(existsSync(join(ws, '.opencode', 'plugins', 'mine.js')));
    });
  });
});
