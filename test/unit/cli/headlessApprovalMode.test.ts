import { strict as assert } from 'node:assert';
import type { ApprovalMode } from '../../../src/core/approval/approvalMode';
import { SAMPLE_INTENTS } from '../../support/governorHarness';
import { headlessHookWorkspace, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, runHook } from '../../support/runHook';

/** The approval mode at a headless door: a real hook process, as Claude Code runs it, with no VS Code to ask. */
describe('approval mode at the headless hook door', () => {
  let workspace: HeadlessHookWorkspace | undefined;
  afterEach(() => workspace?.dispose());

  async function hookWrite(intents: string, approvalSetting: ApprovalMode | null): Promise<{ code: number | null; stdout: string }> {
    workspace = await headlessHookWorkspace({ intents, approvalSetting });
    return runHook('claude', hookFixture('claude', 'pre-write-in-scope', workspace.h.root), ['--intent', 'auth-refactor'], workspace.env);
  }

  function asked(stdout: string): string {
    const answer = JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'ask');
    return answer.hookSpecificOutput.permissionDecisionReason;
  }

  it('with nothing set, an in-scope write asks, as in VS Code, and says the default decided', async () => {
    const run = await hookWrite(SAMPLE_INTENTS, null);
    assert.equal(run.code, 0);
    assert.match(asked(run.stdout), /approval mode every-change \(the default\)/i);
  });

  it('the workspace setting destructive-only lets an in-scope write through without asking', async () => {
    const run = await hookWrite(SAMPLE_INTENTS, 'destructive-only');
    assert.equal(run.code, 0);
    assert.equal(run.stdout, '');
  });

  it('an intent that says every-change wins over the setting: the agent asks its human through its own prompt', async () => {
    const run = await hookWrite(SAMPLE_INTENTS.replace('    constraints:', '    approval: every-change\n    constraints:'), 'destructive-only');
    assert.equal(run.code, 0);
    assert.match(asked(run.stdout), /every-change \(set by intent auth-refactor\)/);
  });
});
