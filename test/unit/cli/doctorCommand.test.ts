import { strict as assert } from 'node:assert';
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, relative } from 'node:path';
import type { DoctorReport } from '../../../src/core/agents/doctor/doctorReport';
import { AGENTS } from '../../../src/core/agents/registry';
import { bundledScript } from '../../support/bundledScript';
import { runNode } from '../../support/childProcesses';
import { SAMPLE_INTENTS } from '../../support/governorHarness';
import { removeTree } from '../../support/removeTree';

type Json = Record<string, any>;

/**
 * `governor doctor` in a real workspace with every agent's hooks installed by `governor hooks install` (the bundled
 * CLI, its hook bundle and headless governor beside it, a private HOME and INTENT_GOVERNOR_HOME): each canary goes
 * through the installed door as the agent runs it, real hook processes, Claude Code's resident governor started from
 * ~/.claude.json, OpenCode's plugin loaded.
 */
describe('governor doctor (real hooks, real processes)', function () {
  this.timeout(120_000);
  let base: string;
  let root: string;
  let env: NodeJS.ProcessEnv;
  let cli: string;

  before(() => {
    const src = join(__dirname, '..', '..', '..', 'src', 'cli');
    // The layout of dist/: the CLI, the hook bundle and the headless governor side by side (install points at hook.js, Claude's server at cli.js).
    const main = bundledScript(join(src, 'main.ts'), 'cli.js');
    bundledScript(join(src, 'hookMain.ts'), 'hook.js');
    bundledScript(join(src, 'headlessDecider.ts'), 'hook-headless.js');
    cli = join(dirname(main), 'cli.js');
    if (basename(main) !== 'cli.js' && !existsSync(cli)) copyFileSync(main, cli);
  });

  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'ig-doctor-')));
    root = join(base, 'project');
    await mkdir(join(root, '.orchestration'), { recursive: true });
    await writeFile(join(root, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
    await mkdir(join(root, 'src', 'auth'), { recursive: true });
    await writeFile(join(root, 'src', 'auth', 'login.ts'), 'export function login() {}\n');
    // A stand-in `gemini` on PATH, so version detection has something to find; node beside it for the hooks.
    const bin = join(base, 'bin');
    await mkdir(bin);
    writeFileSync(join(bin, 'gemini'), '#!/bin/sh\necho 0.61.0\n');
    chmodSync(join(bin, 'gemini'), 0o755);
    env = {
      ...process.env,
      PATH: [bin, dirname(process.execPath), process.env.PATH].join(delimiter),
      HOME: join(base, 'home'),
      INTENT_GOVERNOR_HOME: join(base, 'governor-home'),
      INTENT_GOVERNOR_ANCHOR_DIR: join(base, 'anchors'),
    };
    // No intent picked: each canary is refused NO_ACTIVE_INTENT.
    for (const name of ['CLAUDE_CONFIG_DIR', 'INTENT_GOVERNOR_INTENT']) delete env[name];
  });
  afterEach(() => removeTree(base));

  const governor = (args: string[]) => runNode(cli, args, env, root);
  const install = async (...args: string[]) => {
    const run = await governor(['hooks', 'install', ...args]);
    assert.equal(run.code, 0, run.stderr);
  };
  const doctor = async (expected: number): Promise<DoctorReport> => {
    const run = await governor(['doctor', '--json']);
    assert.equal(run.code, expected, `${run.stdout}\n${run.stderr}`);
    return JSON.parse(run.stdout) as DoctorReport;
  };
  const byAgent = (report: DoctorReport) => Object.fromEntries(report.agents.map((a) => [a.agent, a]));
  const files = (dir = root): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [relative(root, join(dir, entry.name))]));
  const json = (rel: string): Json => JSON.parse(readFileSync(join(root, rel), 'utf8')) as Json;
  const edit = (rel: string, change: (config: Json) => void) => {
    const config = json(rel);
    change(config);
    writeFileSync(join(root, rel), JSON.stringify(config, null, 2));
  };

  it('finds every installed door enforced (Claude Code through its resident governor), writes nothing, and marks what the log records', async () => {
    await install('--claude-hooks', 'mcp_tool');
    const before = files();
    const report = await doctor(0);
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.agents.map((a) => [a.agent, a.verdict]),
      AGENTS.map((a) => [a.id, 'enforced']),
    );
    const agents = byAgent(report);
    assert.deepEqual(
      Object.fromEntries(report.agents.map((a) => [a.agent, a.door])),
      { vscode: 'command hook', claude: 'resident (mcp_tool)', cursor: 'command hook', gemini: 'command hook', codex: 'command hook', copilot: 'command hook', opencode: 'plugin', cline: 'scripts', qwen: 'command hook', droid: 'command hook' },
    );
    for (const agent of report.agents) assert.match(agent.detail, /^\[NO_ACTIVE_INTENT\]/, agent.agent);
    assert.match(agents.claude.detail, /answered by the resident governor 'intent-governor' of .*\.claude\.json/);
    assert.equal(agents.gemini.version, '0.61.0');
    assert.equal(agents.codex.version, 'not found');
    assert.match(agents.vscode.version, /^no binary/);
    assert.deepEqual([agents.cline.hookFile, agents.opencode.hookFile], ['.clinerules/hooks/PreToolUse.sh', '.opencode/plugins/intent-governor.js']);
    // The canary was only proposed: no file, no folder; the only new files are the governor's own logs (and, the first
    // time a governor signs for this user, the public half of the key it made).
    assert.match(report.canary.path, /^\.intent-governor-doctor\/canary-[0-9a-f]{8}\.txt$/);
    assert.equal(existsSync(join(root, '.intent-governor-doctor')), false);
    // The intent map (and its lock, while a detached worker rebuilds it) may appear: the governor's own derived file.
    const added = files().filter((f) => !before.includes(f)).filter((f) => !f.startsWith(join('.orchestration', 'intent_map.md')));
    assert.deepEqual(added.filter((f) => !/^\.orchestration[\\/]signers[\\/][^\\/]+\.pub$/u.test(f)), [join('.orchestration', 'governance_log.jsonl')]);
    const log = readFileSync(join(root, '.orchestration', 'governance_log.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Json);
    assert.equal(log.length, AGENTS.length);
    for (const record of log) {
      assert.equal(record.code, 'NO_ACTIVE_INTENT');
      assert.deepEqual(record.paths, [report.canary.path]);
      assert.ok(`${record.session_id} ${record.invocation_id}`.includes(report.canary.sessionId), JSON.stringify(record));
    }
    assert.ok(report.notes.some((note) => note.includes(report.canary.sessionId) && note.includes('governance_log.jsonl')));

    // The resident governor's server pointed at a file that is gone: Claude Code's hook fails, which blocks every call.
    const claudeJson = join(base, 'home', '.claude.json');
    const config = JSON.parse(readFileSync(claudeJson, 'utf8')) as Json;
    config.projects[root].mcpServers['intent-governor'].args[0] = join(base, 'gone', 'cli.js');
    writeFileSync(claudeJson, JSON.stringify(config));
    const claude = byAgent(await doctor(1)).claude;
    assert.equal(claude.verdict, 'broken');
    assert.match(claude.detail, /refused without reaching the governor, so every call is refused: the resident governor .* did not start or answer/);
    // What node said, not the end of its stack trace (`} |  | Node.js v22…`).
    assert.match(claude.detail, /its stderr: Error: Cannot find module '/);
    assert.doesNotMatch(claude.detail, /Node\.js v\d/);
    assert.equal(claude.fix, 'run `governor hooks install --agent claude`');
  });

  it('reports doors that let the canary through or are gone as broken, with the fix, until they are installed again', async () => {
    await install('--claude-hooks', 'command');
    // VS Code's entry runs a hook bundle that is not there (node exits 1: not a refusal for VS Code's agent).
    edit('.github/hooks/intent-governor.json', (c) => (c.hooks.PreToolUse[0].command = `node "${join(base, 'gone', 'hook.js')}" hook vscode --timeout-ms 110000`));
    // Claude Code's entry runs a hook that answers nothing: the call would run.
    const allow = join(base, 'allow.js');
    writeFileSync(allow, "process.stdin.resume(); process.stdin.on('end', () => process.exit(0));\n");
    edit('.claude/settings.local.json', (c) => (c.hooks.PreToolUse[0].hooks[0].command = `node "${allow}" hook claude`));
    // Gemini CLI's BeforeTool replaced with `true`; Cline's PreToolUse.sh removed (their other hooks stay).
    edit('.gemini/settings.json', (c) => (c.hooks.BeforeTool[0].hooks[0].command = 'true'));
    rmSync(join(root, '.clinerules', 'hooks', 'PreToolUse.sh'));

    const run = await governor(['doctor']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^VS Code agent: broken$/m);
    assert.match(run.stdout, /^Cursor: enforced$/m);
    assert.match(run.stdout, /^ {2}fix: {5}run `governor hooks install --agent gemini`$/m);
    assert.match(run.stdout, /6 of 10 installed doors enforce; not enforcing: VS Code agent, Claude Code, Gemini CLI, Cline\./);

    const agents = byAgent(await doctor(1));
    assert.deepEqual(
      Object.fromEntries(Object.values(agents).map((a) => [a.agent, a.verdict])),
      { vscode: 'broken', claude: 'broken', cursor: 'enforced', gemini: 'broken', codex: 'enforced', copilot: 'enforced', opencode: 'enforced', cline: 'broken', qwen: 'enforced', droid: 'enforced' },
    );
    assert.match(agents.vscode.detail, /^the canary write was let through: the hook exited 1 \(.*Cannot find module.*\): VS Code's agent reads any exit but 0 and 2 as a non-blocking error/);
    assert.match(agents.claude.detail, /^the canary write was let through: the hook exited 0 with no decision: Claude Code runs the tool$/);
    assert.match(agents.gemini.detail, /has Intent Governor's hooks but no BeforeTool entry of ours/);
    assert.match(agents.cline.detail, /PreToolUse\.sh is missing/);
    for (const id of ['vscode', 'claude', 'gemini', 'cline']) assert.equal(agents[id].fix, `run \`governor hooks install --agent ${id}\``);

    await install('--claude-hooks', 'command');
    assert.ok((await doctor(0)).agents.every((a) => a.verdict === 'enforced'));
  });

  it('lists the agents that are not installed with the command that installs them, and exits 0 when the installed doors refuse', async () => {
    await install('--agent', 'gemini', '--agent', 'cline');
    const run = await governor(['doctor']);
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /^Gemini CLI: enforced$/m);
    assert.match(run.stdout, /^Cline: enforced$/m);
    for (const agent of AGENTS.filter((a) => a.id !== 'gemini' && a.id !== 'cline')) assert.ok(run.stdout.includes(`${agent.label}: not installed: governor hooks install --agent ${agent.id}\n`), agent.id);
    assert.match(run.stdout, /2 of 2 installed doors enforce\./);
  });

  it('says so when nothing is installed, and exits 2 on a usage error', async () => {
    const none = await governor(['doctor']);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /No agent hooks are installed in this workspace/);
    assert.equal((await governor(['doctor', '--bogus'])).code, 2);
    assert.equal((await governor(['doctor', '--timeout-ms', '5'])).code, 2);
    assert.equal((await governor(['doctor', '--workspace', join(base, 'nowhere')])).code, 2);
  });
});
