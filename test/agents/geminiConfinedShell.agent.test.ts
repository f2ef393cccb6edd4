import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtGovernor, governorHomes, orchestrationJsonl, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { assertConfinedWriteRecorded, assertEscapesFailed, assertPlantedHooksGone, ESCAPES, escapeTargets, IN_SCOPE_WRITE, PLANTED_HOOKS } from './confinedShellChecks';
import { startScriptedGemini, type ScriptedGemini, type ScriptStep } from '../support/scriptedGemini';
import { sandboxOrSkip } from '../support/sandboxes';
import { ensureBuilt } from './claudeCodeDriver';
import { provisionedGemini, runGemini } from './geminiDriver';

/**
 * Gemini CLI's own run_shell_command, confined: the governor's BeforeTool answer rewrites the command
 * (hookSpecificOutput.tool_input) so that it runs in bubblewrap with only the intent's scope writable, and the
 * AfterTool records what it changed. The real binary, offline, with a scripted Gemini API, headless.
 */
describe("agents: Gemini CLI's run_shell_command runs confined by the sandbox (tool_input)", function () {
  let gemini: string;
  let temp: string;
  let ws: string;

  before(async function () {
    this.timeout(600_000);
    await sandboxOrSkip(this);
    gemini = provisionedGemini();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws } = seedAgentWorkspace('gemini-confined', { login: 'export function login() {}\n' }));
    const install = builtGovernor(['hooks', 'install', '--agent', 'gemini', '--workspace', ws], { HOME: join(temp, 'home'), ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stderr);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[]): Promise<ScriptedGemini> => {
    const model = await startScriptedGemini(script);
    try {
      const run = await runGemini({ binary: gemini, cwd: ws, modelUrl: model.url, home: join(temp, 'home'), env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp) } });
      assert.equal(run.signal, null, `gemini was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `gemini stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return model;
    } finally {
      await model.close();
    }
  };

  const shell = (command: string): ScriptStep => ({ tool: 'run_shell_command', input: { command, description: 'run it' } });

  it('an in-scope write through the shell lands headless, runs confined, and the trace names the file with its hash', async () => {
    const model = await play([shell(IN_SCOPE_WRITE), { text: 'done' }]);
    assertConfinedWriteRecorded(ws, 'gemini-cli', model.toolResults());
  });

  it('a link made and followed in one command, and a redirect through a variable, leave the plan and out-of-scope files byte-identical', async () => {
    const before = escapeTargets(ws);
    const model = await play([...ESCAPES.map(shell), { text: 'done' }]);
    assertEscapesFailed(ws, before, model.toolResults());
  });

  it('a planted repository or agent hook never stays: a .git in the scope folder is refused (read-only placeholder), a hook there and a .git in a new folder are removed, on record', async () => {
    const model = await play([shell(PLANTED_HOOKS), { text: 'done' }]);
    assertPlantedHooksGone(ws, model.toolResults());
  });

  it('a background shell (is_background) whose write lands after its AfterTool is recorded under that call once its sandbox ends', async () => {
    const model = await play([
      { tool: 'run_shell_command', input: { command: 'sleep 1.5; echo late > src/auth/late.txt', description: 'later', is_background: true } },
      shell('sleep 4; echo waited'),
      { text: 'done' },
    ]);
    assert.equal(readFileSync(join(ws, 'src/auth/late.txt'), 'utf8'), 'late\n', JSON.stringify(model.toolResults()));
    const late = orchestrationJsonl(ws, 'agent_trace.jsonl').filter((r) => (r as { metadata: { files?: { path: string }[] } }).metadata.files?.some((f) => f.path === 'src/auth/late.txt'));
    assert.equal(late.length, 1, JSON.stringify(late));
  });
});
