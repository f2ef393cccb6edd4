import { strict as assert } from 'node:assert';
import { SAMPLE_INTENTS } from '../../support/governorHarness';
import { headlessHookWorkspace, type HeadlessHookWorkspace } from '../../support/headlessHookWorkspace';
import { hookFixture, runHook } from '../../support/runHook';

/** The approval mode at a headless door: a real hook process, as Claude Code runs it, with no VS Code to ask. */
describe('approval mode at the headless hook door', () => {
  let workspace: HeadlessHookWorkspace | undefined;
  afterEach(() => workspace?.dispose());

  async function hookWrite(intents: string): Promise<{ code: number | null; stdout: string }> {
    workspace = await headlessHookWorkspace({ intents });
    return runHook('claude', hookFixture('claude', 'pre-write-in-scope', workspace.h.root), ['--intent', 'auth-refactor'], workspace.env);
  }

  it('keeps today’s default: an in-scope write is allowed without asking', async () => {
    const run = await hookWrite(SAMPLE_INTENTS);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, '');
  });

  it('an intent that says every-change makes the agent ask its human through its own prompt', async () => {
    const run = await hookWrite(SAMPLE_INTENTS.replace('    constraints:', '    approval: every-change\n    constraints:'));
    assert.equal(run.code, 0);
    const answer = JSON.parse(run.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'ask');
    assert.match(answer.hookSpecificOutput.permissionDecisionReason, /every-change \(set by intent auth-refactor\)/);
  });
});
