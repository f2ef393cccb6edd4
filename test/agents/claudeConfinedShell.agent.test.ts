import { strict as assert } from 'node:assert';
import { existsSync, lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '../../src/core/contentHash';
import { builtGovernor, governorHomes, orchestrationJsonl, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedAnthropic, type ScriptStep, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { sandboxOrSkip } from '../support/sandboxes';
import { assertPlantedHooksGone, PLANTED_HOOKS } from './confinedShellChecks';
import { ensureBuilt, provisionedClaude, runClaude, type ClaudeRun } from './claudeCodeDriver';

/**
 * Claude Code's own Bash tool, confined: the governor's PreToolUse answer rewrites the command (updatedInput) so
 * that it runs in bubblewrap with only the intent's scope writable; the post records what it changed, with hashes.
 * The real binary, offline, with a scripted model, headless (nobody approves anything).
 */
describe("agents: Claude Code's Bash runs confined by the sandbox (updatedInput)", function () {
  let claude: string;
  let temp: string;
  let ws: string;

  before(async function () {
    this.timeout(600_000);
    await sandboxOrSkip(this);
    claude = provisionedClaude();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws } = seedAgentWorkspace('claude-confined', { login: 'export function login() {}\n' }));
    const install = builtGovernor(['hooks', 'install', '--agent', 'claude', '--claude-hooks', 'command', '--workspace', ws], { HOME: join(temp, 'home'), ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stderr);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[]): Promise<{ run: ClaudeRun; model: ScriptedAnthropic }> => {
    const model = await startScriptedAnthropic(script);
    try {
      const run = await runClaude({ binary: claude, cwd: ws, modelUrl: model.url, home: join(temp, 'home'), env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp) } });
      assert.equal(run.signal, null, `claude was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `claude stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return { run, model };
    } finally {
      await model.close();
    }
  };

  const bash = (command: string): ScriptStep => ({ tool: 'Bash', input: { command, description: 'run it' } });
  const snapshot = (rel: string) => readFileSync(join(ws, rel));
  const lastRecord = () => orchestrationJsonl(ws, 'agent_trace.jsonl').at(-1) as { files: { path: string }[]; metadata: Record<string, unknown> } | undefined;

  it('an in-scope write through the shell runs confined and lands (the ask approved in Claude, bypass mode); the trace names the file with its hash', async () => {
    const { model } = await play([bash('echo ok > src/auth/new.ts && echo "tmp=$TMPDIR"'), { text: 'done' }]);
    const [result] = model.toolResults();
    assert.equal(result?.is_error, false, JSON.stringify(model.toolResults()));
    assert.equal(readFileSync(join(ws, 'src/auth/new.ts'), 'utf8'), 'ok\n');
    // The rewritten command ran: its private temp folder is the sandbox's, gone afterwards.
    const tmp = /tmp=(\S+)/.exec(result.text)?.[1];
    assert.match(tmp ?? '', /\/governor-shell-[A-Za-z0-9]{6}$/, result.text);
    assert.equal(existsSync(tmp as string), false, 'the temp folder is removed after the post');
    const record = lastRecord();
    assert.ok(record, 'no trace record');
    assert.equal(record.metadata.tool_name, 'run_command');
    assert.equal(record.metadata.agent, 'claude-code');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.match(String(record.metadata.invocation_id), /toolu_scripted_1#0$/, 'under the Bash call the pre phase judged');
    assert.deepEqual(record.metadata.files, [{ path: 'src/auth/new.ts', change: 'created', after_hash: contentHash('ok\n') }]);
    assert.deepEqual(readdirSync(join(ws, '.orchestration/pending')).filter((n) => n.startsWith('native.') && !n.endsWith('.done')), [], 'the pending entry is completed');
  });

  it('a link made and followed in one command cannot change the protected plan: byte-identical, the refusal reaches the model', async () => {
    const plan = snapshot('.orchestration/active_intents.yaml');
    const { model } = await play([bash('ln -s ../../.orchestration src/auth/o && echo "# pwned" >> src/auth/o/active_intents.yaml'), { text: 'done' }]);
    assert.deepEqual(snapshot('.orchestration/active_intents.yaml'), plan);
    const [result] = model.toolResults();
    assert.match(result?.text ?? '', /Read-only file system/, JSON.stringify(model.toolResults()));
    // The link it made inside the scope is on record.
    assert.ok(lstatSync(join(ws, 'src/auth/o')).isSymbolicLink());
    assert.deepEqual(lastRecord()?.files.map((f) => f.path), ['src/auth/o']);
  });

  it('a planted repository or agent hook never stays: a .git in the scope folder is refused (read-only placeholder), a hook there and a .git in a new folder are removed, on record', async () => {
    const { model } = await play([bash(PLANTED_HOOKS), { text: 'done' }]);
    assertPlantedHooksGone(ws, model.toolResults());
  });

  it('a background Bash (run_in_background) whose write lands after its post is recorded under that Bash call once its sandbox ends', async () => {
    const { model } = await play([
      { tool: 'Bash', input: { command: 'sleep 1.5; echo late > src/auth/late.txt', description: 'later', run_in_background: true } },
      bash('sleep 4; echo waited'),
      { text: 'done' },
    ]);
    assert.equal(readFileSync(join(ws, 'src/auth/late.txt'), 'utf8'), 'late\n', JSON.stringify(model.toolResults()));
    const records = orchestrationJsonl(ws, 'agent_trace.jsonl') as { metadata: { invocation_id?: string; files?: { path: string; after_hash?: string }[] } }[];
    const late = records.filter((r) => r.metadata.files?.some((f) => f.path === 'src/auth/late.txt'));
    assert.equal(late.length, 1, JSON.stringify(records.map((r) => r.metadata)));
    assert.match(String(late[0].metadata.invocation_id), /toolu_scripted_1#0$/, 'under the background Bash call');
    assert.equal(late[0].metadata.files?.[0].after_hash, contentHash('late\n'));
  });

  it('a write whose target only exists at run time and an interpreter writing outside leave every other file byte-identical', async () => {
    const invoice = snapshot('src/billing/invoice.ts');
    const { model } = await play([
      bash('d=src/billing; echo x >> "$d/invoice.ts"'),
      bash(`python3 -c "open('../outside.txt','w').write('x')" ; node -e "require('fs').appendFileSync('src/billing/invoice.ts','y')"`),
      { text: 'done' },
    ]);
    assert.deepEqual(snapshot('src/billing/invoice.ts'), invoice);
    assert.equal(existsSync(join(temp, 'outside.txt')), false);
    // The redirect ran and the kernel said no; the interpreters ask (code the text cannot show), and where Claude
    // runs them anyway they run confined: either way the model reads why.
    const results = model.toolResults();
    assert.equal(results.length, 2, JSON.stringify(results));
    assert.match(results[0].text, /cannot create src\/billing\/invoice\.ts: Read-only file system/, JSON.stringify(results));
    assert.match(results[1].text, /Read-only file system|Runs confined by bubblewrap/, JSON.stringify(results));
  });
});
