import { strict as assert } from 'node:assert';
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { isOurCommand } from '../../../src/core/userHooks/ourHookCommand';
import type { AgentAdapter } from '../../../src/core/agents/common/agentAdapter';
import { AGENTS as REGISTERED } from '../../../src/core/agents/registry';

const AGENTS: readonly AgentAdapter[] = REGISTERED;
import { bundledScript } from '../../support/bundledScript';
import { SAMPLE_INTENTS } from '../../support/governorHarness';
import { removeTree } from '../../support/removeTree';
import { runGovernor } from '../../support/runGovernor';

const REPO = join(__dirname, '..', '..', '..');

/** Every file under `dir` (not .git), relative, with its text. */
function filesUnder(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return found;
}

type Json = Record<string, unknown>;

/** Each event's hooks of ours in an agent's JSON config: how many entries, and their commands. */
function oursPerEvent(config: Json): Map<string, string[]> {
  const per = new Map<string, string[]>();
  // Droid's hooks file holds the events at its top level; the others under `hooks`.
  const hooks = (config.hooks ?? config) as Record<string, unknown[]>;
  for (const [event, list] of Object.entries(hooks)) {
    const commands: string[] = [];
    for (const entry of list as Json[]) {
      if (isOurCommand(entry.command)) commands.push(entry.command as string);
      for (const hook of (Array.isArray(entry.hooks) ? entry.hooks : []) as Json[]) if (isOurCommand(hook.command)) commands.push(hook.command as string);
    }
    if (commands.length) per.set(event, commands);
  }
  return per;
}

/** The same config as an older version wrote it: each of our commands names a hook bundle on that machine. */
function asOldInstall(text: string): string {
  const config = JSON.parse(text) as Json;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    const copy: Json = {};
    for (const [key, inner] of Object.entries(value)) {
      const agent = key === 'command' && isOurCommand(inner) ? / hook ([a-z-]+) /u.exec(inner as string)?.[1] : undefined;
      copy[key] = agent ? `node "/home/someone/.vscode/extensions/intent-governor-0.0.9/dist/hook.js" hook ${agent} --timeout-ms 110000 || exit 2` : rewrite(inner);
    }
    return copy;
  };
  return `${JSON.stringify(rewrite(config), null, 2)}\n`;
}

/**
 * `governor hooks install` as a person runs it in a repository the team shares: the files it writes into the
 * workspace name no path of this machine (a teammate's clone must work), and the per-user launcher they name is
 * written outside it.
 */
describe('governor hooks install: committed hook files are portable', function () {
  this.timeout(60_000);
  let temp: string;
  let ws: string;
  let home: string;
  let governorHome: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(() => {
    temp = realpathSync(mkdtempSync(join(tmpdir(), 'ig-portable-')));
    ws = join(temp, 'ws');
    home = join(temp, 'home');
    governorHome = join(temp, 'governor-home');
    mkdirSync(join(ws, '.orchestration'), { recursive: true });
    mkdirSync(home);
    writeFileSync(join(ws, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
    // No agent binary on PATH: nothing is detected or trusted from this machine.
    env = { INTENT_GOVERNOR_HOME: governorHome, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };
  });
  afterEach(() => removeTree(temp));

  const governor = (args: string[]) => runGovernor(args, { anchorDir: join(temp, 'anchors'), home, env });
  const everyAgent = AGENTS.flatMap((agent) => ['--agent', agent.id]);

  for (const claudeHooks of ['command', 'mcp_tool']) {
    it(`every agent in the registry (Claude Code with ${claudeHooks} hooks): no file in the workspace names the repository, the hook bundle, the governor's home or HOME; the launcher is outside, executable`, async () => {
      // As dist/ holds it: the hook bundle beside the CLI, whichever test bundled first.
      bundledScript(join(REPO, 'src', 'cli', 'hookMain.ts'), 'hook.js');
      const installed = await governor(['hooks', 'install', ...everyAgent, '--claude-hooks', claudeHooks, '--workspace', ws]);
      assert.equal(installed.code, 0, installed.stdout + installed.stderr);
      const launcher = join(governorHome, 'bin', 'governor-hook');
      assert.match(installed.stdout, new RegExp(`^launcher: ${launcher} written$`, 'm'));
      const bundle = dirname(bundledScript(join(REPO, 'src', 'cli', 'main.ts')));
      const files = filesUnder(ws);
      for (const agent of AGENTS) assert.ok([...files.keys()].some((file) => file.startsWith(agent.hookFiles.replace(/\/$/u, ''))), `${agent.id}: nothing written at ${agent.hookFiles}`);
      const machinePaths = { repository: REPO, 'hook bundle': bundle, "governor's home": governorHome, HOME: home, 'this process HOME': process.env.HOME ?? '/nonexistent', temp };
      for (const [file, text] of files) {
        for (const [what, path] of Object.entries(machinePaths)) assert.ok(!text.includes(path), `${file} names ${what} (${path})`);
      }
      // The launcher: outside the workspace, executable by its owner and others, running the bundle beside this CLI.
      assert.ok(relative(ws, launcher).startsWith('..'), 'outside the workspace');
      assert.equal(statSync(launcher).mode & 0o777, 0o755);
      accessSync(launcher, constants.X_OK);
      assert.match(readFileSync(launcher, 'utf8'), new RegExp(`^hook='${bundle.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}/(hook|main)\\.js'$`, 'm'));
      // Run again: nothing changes, and the launcher is not rewritten.
      const again = await governor(['hooks', 'install', ...everyAgent, '--claude-hooks', claudeHooks, '--workspace', ws]);
      assert.match(again.stdout, new RegExp(`^launcher: ${launcher} unchanged$`, 'm'));
      assert.deepEqual(filesUnder(ws), files);
    });
  }

  it('reinstalling over an install in the old form (a path on another machine) leaves one entry of ours per event; uninstall removes old and new', async () => {
    const jsonAgents = AGENTS.filter((agent) => agent.jsonHooks);
    const installed = await governor(['hooks', 'install', ...everyAgent, '--claude-hooks', 'command', '--workspace', ws]);
    assert.equal(installed.code, 0, installed.stderr);
    const fresh = new Map(jsonAgents.map((agent) => [agent.id, readFileSync(join(ws, agent.hookFiles), 'utf8')]));
    // What an older version left: the same entries naming its hook bundle.
    for (const agent of jsonAgents) writeFileSync(join(ws, agent.hookFiles), asOldInstall(fresh.get(agent.id) ?? ''));
    for (const agent of jsonAgents) assert.match(readFileSync(join(ws, agent.hookFiles), 'utf8'), /intent-governor-0\.0\.9/u, agent.id);
    const reinstalled = await governor(['hooks', 'install', ...everyAgent, '--claude-hooks', 'command', '--workspace', ws]);
    assert.equal(reinstalled.code, 0, reinstalled.stderr);
    for (const agent of jsonAgents) {
      const text = readFileSync(join(ws, agent.hookFiles), 'utf8');
      assert.equal(text, fresh.get(agent.id), `${agent.id}: the old entries replaced, not added to`);
      for (const [event, commands] of oursPerEvent(JSON.parse(text) as Json)) assert.equal(commands.length, 1, `${agent.id} ${event}`);
    }
    // Old and new side by side (an install by an older version merged into a newer one): uninstall removes both.
    for (const agent of jsonAgents) {
      const config = JSON.parse(fresh.get(agent.id) ?? '{}') as Json;
      const old = JSON.parse(asOldInstall(fresh.get(agent.id) ?? '')) as Json;
      // Droid's hooks file holds the events at its top level; the others under `hooks`.
      const topLevel = agent.jsonHooks?.shape.topLevel === true;
      const events = (topLevel ? config : config.hooks) as Record<string, unknown[]>;
      const oldEvents = (topLevel ? old : old.hooks) as Record<string, unknown[]>;
      for (const event of Object.keys(events)) events[event] = [...oldEvents[event], ...events[event]];
      writeFileSync(join(ws, agent.hookFiles), JSON.stringify(config));
    }
    const removed = await governor(['hooks', 'uninstall', ...everyAgent, '--workspace', ws]);
    assert.equal(removed.code, 0, removed.stderr);
    const left = filesUnder(ws);
    // The git files stay: the logs they mark are the team's, with or without the doors.
    assert.deepEqual([...left.keys()].sort(), ['.orchestration/.gitattributes', '.orchestration/.gitignore', '.orchestration/active_intents.yaml'], [...left.keys()].join(', '));
  });
});
