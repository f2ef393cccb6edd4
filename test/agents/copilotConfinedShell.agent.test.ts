import { strict as assert } from 'node:assert';
import { existsSync, lstatSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '../../src/core/contentHash';
import { builtGovernor, governorHomes, orchestrationJsonl, seedAgentWorkspace } from './agentWorkspace';
import { startScriptedAnthropic, type ScriptStep, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { sandboxOrSkip } from '../support/sandboxes';
import { ensureBuilt } from './claudeCodeDriver';
import { provisionedCopilot, runCopilot } from './copilotDriver';

/**
 * GitHub Copilot CLI's own bash, confined: the governor's preToolUse answer rewrites the command (permissionDecision
 * allow + modifiedArgs) so that it runs in bubblewrap with only the intent's scope writable, and the postToolUse
 * records what it changed. The real binary, offline (BYOK, scripted Anthropic API), headless. Copilot CLI 1.0.102
 * refuses a rewrite whose line starts \`/usr/bin/env TMPDIR=…\` ("The script or its execution context changed after
 * permission evaluation"), so the confined line sets the temp folder with shell assignments.
 */
describe("agents: GitHub Copilot CLI's bash runs confined by the sandbox (modifiedArgs)", function () {
  let copilot: string;
  let temp: string;
  let ws: string;

  before(async function () {
    this.timeout(600_000);
    await sandboxOrSkip(this);
    copilot = provisionedCopilot();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws } = seedAgentWorkspace('copilot-confined', { login: 'export function login() {}\n' }));
    const install = builtGovernor(['hooks', 'install', '--agent', 'copilot', '--workspace', ws], { HOME: join(temp, 'home'), ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stderr);
  });

  afterEach(() => rmSync(temp, { recursive: true, force: true, maxRetries: 5 }));

  const play = async (script: ScriptStep[]): Promise<ScriptedAnthropic> => {
    const model = await startScriptedAnthropic(script);
    try {
      const run = await runCopilot({ binary: copilot, cwd: ws, trusted: ws, modelUrl: model.url, home: join(temp, 'home'), env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp) } });
      assert.equal(run.signal, null, `copilot was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `copilot stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return model;
    } finally {
      await model.close();
    }
  };

  const exec = (command: string): ScriptStep => ({ tool: 'bash', input: { command, description: 'run it' } });
  const bytes = (rel: string) => readFileSync(join(ws, rel));
  const lastRecord = () => orchestrationJsonl(ws, 'agent_trace.jsonl').at(-1) as { metadata: Record<string, unknown> } | undefined;

  it('an in-scope write through the shell lands headless, runs confined, and the trace names the file with its hash', async () => {
    const model = await play([exec('echo ok > src/auth/new.ts && echo "tmp=$TMPDIR"'), { text: 'done' }]);
    const [result] = model.toolResults();
    assert.equal(readFileSync(join(ws, 'src/auth/new.ts'), 'utf8'), 'ok\n', JSON.stringify(model.toolResults()));
    assert.match(result?.text ?? '', /tmp=\/[^"\\\s]*\/governor-shell-[A-Za-z0-9]{6}/u, 'the rewritten command ran');
    const record = lastRecord();
    assert.ok(record, 'no trace record');
    assert.equal(record.metadata.tool_name, 'run_command');
    assert.equal(record.metadata.agent, 'copilot-cli');
    assert.equal(record.metadata.intent_id, 'auth-refactor');
    assert.deepEqual(record.metadata.files, [{ path: 'src/auth/new.ts', change: 'created', after_hash: contentHash('ok\n') }]);
    assert.deepEqual(readdirSync(join(ws, '.orchestration/pending')).filter((n) => n.startsWith('native.') && !n.endsWith('.done')), [], 'the pending entry is completed');
  });

  it('a link made and followed in one command, and a redirect through a variable, leave the plan and out-of-scope files byte-identical', async () => {
    const plan = bytes('.orchestration/active_intents.yaml');
    const invoice = bytes('src/billing/invoice.ts');
    const model = await play([exec('ln -s ../../.orchestration src/auth/o && echo "# pwned" >> src/auth/o/active_intents.yaml'), exec('d=src/billing; echo x >> "$d/invoice.ts"'), { text: 'done' }]);
    assert.deepEqual(bytes('.orchestration/active_intents.yaml'), plan);
    assert.deepEqual(bytes('src/billing/invoice.ts'), invoice);
    const results = model.toolResults();
    assert.equal(results.length, 2, JSON.stringify(results));
    for (const result of results) assert.match(result.text, /Read-only file system/u, JSON.stringify(results));
    assert.ok(lstatSync(join(ws, 'src/auth/o')).isSymbolicLink());
    assert.equal(existsSync(join(ws, 'src/auth/o/active_intents.yaml')), true, 'the link leads to the plan, which it could not change');
  });
});
