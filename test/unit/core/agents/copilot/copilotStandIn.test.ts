import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeDialect } from '../../../../../src/core/agents/claude/claudeDialect';
import { copilotDialect } from '../../../../../src/core/agents/copilot/copilotDialect';
import { copilotStandIn } from '../../../../../src/core/agents/copilot/copilotStandIn';
import { HOOK_CONFIG_FILES } from '../../../../../src/core/agents/registry';
import { installHookConfig } from '../../../../../src/core/agents/agentHooks';
import { vscodeDialect } from '../../../../../src/core/agents/vscode/vscodeDialect';
import { createHarness, type Harness } from '../../../../support/governorHarness';
import { hookFixture, runHook } from '../../../../support/runHook';
import { removeTree } from '../../../../support/removeTree';

/**
 * GitHub Copilot CLI runs VS Code's (.github/hooks/intent-governor.json) and Claude Code's (.claude/settings*.json)
 * entries too, with its calls in their format (`Write {path, file_text}`, an apply_patch as `Edit` with the patch
 * text): what those entries answer it, as real hook processes with the environment Copilot CLI 1.0.102 gives hooks.
 */
describe('Copilot CLI and VS Code’s agent running each other’s hook entries', () => {
  let h: Harness;
  let home: string;
  let copilotEnv: NodeJS.ProcessEnv;
  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': 'export function login() {}\n' } });
    home = await mkdtemp(join(tmpdir(), 'ig-home-'));
    copilotEnv = { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), COPILOT_CLI: '1', COPILOT_PROJECT_DIR: h.root, COPILOT_HOOK_DIR: join(h.root, '.github', 'hooks') };
  });
  afterEach(async () => {
    await h.dispose();
    await removeTree(home);
  });

  const installCopilot = async () => {
    const edit = installHookConfig('copilot', undefined, '/opt/ig/dist/hook.js');
    assert.ok(edit.ok && edit.text);
    await h.file(HOOK_CONFIG_FILES.copilot, edit.text);
  };
  /** Copilot CLI's create of an in-scope file, as a PascalCase entry receives it. */
  const write = () => hookFixture('copilot', 'pre-write-vscode-format', h.root);
  /** A GPT model's apply_patch, as a PascalCase entry receives it: `Edit` with the patch text (no tool_input object). */
  const patch = () => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', timestamp: '2026-11-23T12:00:30.807Z', cwd: h.root, tool_name: 'Edit', tool_input: '*** Begin Patch\n*** Add File: src/auth/p.ts\n+p\n*** End Patch\n' });

  for (const agent of ['vscode', 'claude']) {
    it(`\`hook ${agent}\` stands aside when the copilot entry is installed, whatever the call (nothing on stdout, no record)`, async () => {
      await installCopilot();
      for (const stdin of [write(), patch()]) {
        const run = await runHook(agent, stdin, ['--intent', 'auth-refactor'], copilotEnv);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stdout, '');
      }
      assert.equal(existsSync(join(h.root, '.orchestration', 'governance_log.jsonl')), false);
    });

    it(`\`hook ${agent}\` refuses Copilot CLI's call without the copilot entry, saying how to govern Copilot CLI, and audits it`, async () => {
      const run = await runHook(agent, write(), ['--intent', 'auth-refactor'], copilotEnv);
      const specific = JSON.parse(run.stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };
      assert.equal(specific.permissionDecision, 'deny');
      assert.match(specific.permissionDecisionReason, /GitHub Copilot CLI ran Intent Governor's hook for another agent.*governor hooks install --agent copilot/);
      assert.match(await readFile(join(h.root, '.orchestration', 'governance_log.jsonl'), 'utf8'), /GitHub Copilot CLI ran/);
      const unreadable = await runHook(agent, patch(), ['--intent', 'auth-refactor'], copilotEnv);
      assert.equal(unreadable.code, 2);
      assert.match(unreadable.stderr, /GitHub Copilot CLI ran Intent Governor's hook/);
    });
  }

  /** VS Code's agent reads .github/hooks/*.json in Copilot CLI's camelCase too, and sends the copilot entry its own payload. */
  const vscodeCreate = () => JSON.stringify({ timestamp: '2026-11-23T12:00:30.807Z', hook_event_name: 'PreToolUse', session_id: 'v', transcript_path: '/t', cwd: h.root, tool_name: 'create_file', tool_input: { filePath: join(h.root, 'src/auth/token.ts'), content: 'x' }, tool_use_id: 'call_1' });

  it('`hook copilot` stands aside for VS Code’s agent when VS Code’s entry is installed', async () => {
    const edit = installHookConfig('vscode', undefined, '/opt/ig/dist/hook.js');
    assert.ok(edit.ok && edit.text);
    await h.file(HOOK_CONFIG_FILES.vscode, edit.text);
    const run = await runHook('copilot', vscodeCreate(), ['--intent', 'auth-refactor'], { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors') });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
  });

  it('`hook copilot` refuses VS Code’s agent’s call without VS Code’s entry, in the field VS Code reads, and audits it', async () => {
    const run = await runHook('copilot', vscodeCreate(), ['--intent', 'auth-refactor'], { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors') });
    const specific = JSON.parse(run.stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };
    assert.equal(specific.permissionDecision, 'deny');
    assert.match(specific.permissionDecisionReason, /VS Code's agent ran Intent Governor's hook for another agent \(copilot-cli\).*governor hooks install --agent vscode/);
    assert.match(await readFile(join(h.root, '.orchestration', 'governance_log.jsonl'), 'utf8'), /VS Code's agent ran/);
  });

  it('leaves every other run alone: the copilot entry itself, and hooks not started by Copilot CLI (its agent’s shell has COPILOT_CLI but no COPILOT_PROJECT_DIR)', () => {
    assert.equal(copilotStandIn(copilotDialect, {}, { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: h.root }, h.root), undefined);
    assert.equal(copilotStandIn(claudeDialect, {}, { COPILOT_CLI: '1' }, h.root), undefined);
    assert.equal(copilotStandIn(vscodeDialect, {}, {}, h.root), undefined);
    // Copilot CLI's own input (camelCase sessionId, even with a hook_event_name), or any input in a Copilot CLI hook process, is the copilot entry's own.
    assert.equal(copilotStandIn(copilotDialect, { sessionId: 's', hook_event_name: 'PreToolUse', toolName: 'create', toolArgs: {} }, {}, h.root), undefined);
    assert.equal(copilotStandIn(copilotDialect, JSON.parse(vscodeCreate()), { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: h.root }, h.root), undefined);
    const refused = copilotStandIn(vscodeDialect, {}, { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: h.root }, h.root);
    assert.equal(typeof refused === 'object' && refused.kind, 'refused');
  });

  it('does not take a copilot file without our preToolUse entry, or one that is not a regular file, as installed', async () => {
    await h.file(HOOK_CONFIG_FILES.copilot, JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', command: 'node "/x/hook.js" hook vscode' }] } }));
    assert.notEqual(copilotStandIn(vscodeDialect, {}, { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: h.root }, h.root), 'aside');
    await h.file(HOOK_CONFIG_FILES.copilot, 'not json');
    assert.notEqual(copilotStandIn(vscodeDialect, {}, { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: h.root }, h.root), 'aside');
    // A FIFO is refused unread (never waited on for a writer).
    await unlink(join(h.root, HOOK_CONFIG_FILES.copilot));
    assert.equal(spawnSync('mkfifo', [join(h.root, HOOK_CONFIG_FILES.copilot)]).status, 0);
    assert.notEqual(copilotStandIn(vscodeDialect, {}, { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: h.root }, h.root), 'aside');
  });
});
