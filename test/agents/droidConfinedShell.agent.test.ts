import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { builtGovernor, governorHomes, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { assertConfinedWriteRecorded, assertEscapesFailed, assertPlantedHooksGone, ESCAPES, escapeTargets, IN_SCOPE_WRITE, PLANTED_HOOKS } from './confinedShellChecks';
import { startScriptedAnthropic, type ScriptedAnthropic, type ScriptStep } from '../support/scriptedAnthropic';
import { sandboxOrSkip } from '../support/sandboxes';
import { ensureBuilt } from './claudeCodeDriver';
import { provisionedDroid, runDroid } from './droidDriver';

/**
 * Factory Droid's own Execute, confined: the governor's PreToolUse answer rewrites the command (`updatedInput`,
 * which Droid merges over the model's input) so that it runs in bubblewrap with only the intent's scope writable,
 * and the PostToolUse records what it changed. The real binary, offline, with a scripted Anthropic model, headless.
 */
describe("agents: Factory Droid's Execute runs confined by the sandbox (updatedInput)", function () {
  let droid: string;
  let temp: string;
  let ws: string;

  before(async function () {
    this.timeout(600_000);
    await sandboxOrSkip(this);
    droid = provisionedDroid();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws } = seedAgentWorkspace('droid-confined', { login: 'export function login() {}\n' }));
    const install = builtGovernor(['hooks', 'install', '--agent', 'droid', '--workspace', ws], { HOME: join(temp, 'home'), ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stderr);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[]): Promise<ScriptedAnthropic> => {
    const model = await startScriptedAnthropic(script);
    try {
      const run = await runDroid({ binary: droid, cwd: ws, modelUrl: model.url, home: join(temp, 'home'), env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp) } });
      assert.equal(run.signal, null, `droid was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `droid stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return model;
    } finally {
      await model.close();
    }
  };

  const execute = (command: string): ScriptStep => ({ tool: 'Execute', input: { command, summary: 'run it', riskLevel: 'low', riskLevelReason: 'the scripted task' } });

  it('an in-scope write through Execute lands headless, runs confined, and the trace names the file with its hash', async () => {
    const model = await play([execute(IN_SCOPE_WRITE), { text: 'done' }]);
    assertConfinedWriteRecorded(ws, 'factory-droid', model.toolResults());
  });

  it('a link made and followed in one command, and a redirect through a variable, leave the plan and out-of-scope files byte-identical', async () => {
    const before = escapeTargets(ws);
    const model = await play([...ESCAPES.map(execute), { text: 'done' }]);
    assertEscapesFailed(ws, before, model.toolResults());
  });

  it('a planted repository or agent hook never stays: a .git in the scope folder is refused (read-only placeholder), a hook there and a .git in a new folder are removed, on record', async () => {
    const model = await play([execute(PLANTED_HOOKS), { text: 'done' }]);
    assertPlantedHooksGone(ws, model.toolResults());
  });
});
