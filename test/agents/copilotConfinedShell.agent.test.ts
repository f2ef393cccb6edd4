import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { builtGovernor, governorHomes, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { assertConfinedWriteRecorded, assertEscapesFailed, assertPlantedHooksGone, ESCAPES, escapeTargets, IN_SCOPE_WRITE, PLANTED_HOOKS } from './confinedShellChecks';
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

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

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

  it('an in-scope write through the shell lands headless, runs confined, and the trace names the file with its hash', async () => {
    const model = await play([exec(IN_SCOPE_WRITE), { text: 'done' }]);
    assertConfinedWriteRecorded(ws, 'copilot-cli', model.toolResults());
  });

  it('a link made and followed in one command, and a redirect through a variable, leave the plan and out-of-scope files byte-identical', async () => {
    const before = escapeTargets(ws);
    const model = await play([...ESCAPES.map(exec), { text: 'done' }]);
    assertEscapesFailed(ws, before, model.toolResults());
  });

  it('a planted repository or agent hook never stays: a .git in the scope folder is refused (read-only placeholder), a hook there and a .git in a new folder are removed, on record', async () => {
    const model = await play([exec(PLANTED_HOOKS), { text: 'done' }]);
    assertPlantedHooksGone(ws, model.toolResults());
  });
});
