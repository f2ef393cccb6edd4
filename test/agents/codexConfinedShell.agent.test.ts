import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { builtGovernor, governorHomes, removeAgentTemp, seedAgentWorkspace } from './agentWorkspace';
import { assertConfinedWriteRecorded, assertEscapesFailed, assertPlantedHooksGone, ESCAPES, escapeTargets, IN_SCOPE_WRITE, PLANTED_HOOKS } from './confinedShellChecks';
import { startScriptedOpenAI, type ScriptStep, type ScriptedOpenAI } from '../support/scriptedOpenAI';
import { sandboxOrSkip } from '../support/sandboxes';
import { ensureBuilt } from './claudeCodeDriver';
import { pathWithCodex, provisionedCodex, runCodex, writeCodexConfig } from './codexDriver';

/**
 * Codex CLI's own exec_command (Bash to its hooks), confined: the governor's PreToolUse answer rewrites the command
 * (permissionDecision allow + updatedInput, openai/codex#20527) so that it runs in bubblewrap with only the
 * intent's scope writable, and the PostToolUse records what it changed. The real binary, offline, headless.
 */
describe("agents: Codex CLI's exec_command runs confined by the sandbox (updatedInput)", function () {
  let codex: string;
  let temp: string;
  let ws: string;
  let home: string;

  before(async function () {
    this.timeout(600_000);
    await sandboxOrSkip(this);
    codex = provisionedCodex();
    ensureBuilt();
  });

  beforeEach(() => {
    ({ temp, ws, home } = seedAgentWorkspace('codex-confined', { login: 'export function login() {}\n' }));
    writeCodexConfig(home, [ws]);
    const install = builtGovernor(['hooks', 'install', '--agent', 'codex', '--workspace', ws], { HOME: home, CODEX_HOME: join(home, '.codex'), PATH: pathWithCodex(codex), ...governorHomes(temp) });
    assert.equal(install.status, 0, install.stdout + install.stderr);
  });

  afterEach(function () {
    removeAgentTemp(temp, undefined, this.currentTest);
  });

  const play = async (script: ScriptStep[]): Promise<ScriptedOpenAI> => {
    const model = await startScriptedOpenAI(script);
    try {
      const run = await runCodex({ binary: codex, cwd: ws, modelUrl: model.url, home, env: { INTENT_GOVERNOR_INTENT: 'auth-refactor', ...governorHomes(temp) } });
      assert.equal(run.signal, null, `codex was killed: ${run.stderr}`);
      assert.equal(model.remaining(), 0, `codex stopped before playing the script: ${run.stdout}\n${run.stderr}`);
      return model;
    } finally {
      await model.close();
    }
  };

  const exec = (cmd: string): ScriptStep => ({ tool: 'exec_command', input: { cmd } });

  it('an in-scope write through the shell lands headless, runs confined, and the trace names the file with its hash', async () => {
    const model = await play([exec(IN_SCOPE_WRITE), { text: 'done' }]);
    assertConfinedWriteRecorded(ws, 'codex-cli', model.toolResults());
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
