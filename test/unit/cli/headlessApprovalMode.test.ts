import { strict as assert } from 'node:assert';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, SAMPLE_INTENTS, type Harness } from '../../support/governorHarness';
import { hookFixture, runHook } from '../../support/runHook';
import { removeTree } from '../../support/removeTree';

/** The approval mode at a headless door: a real hook process, as Claude Code runs it, with no VS Code to ask. */
describe('approval mode at the headless hook door', () => {
  let h: Harness | undefined;
  let home: string;
  afterEach(async () => {
    await h?.dispose();
    await removeTree(home);
  });

  async function hookWrite(intents: string): Promise<{ code: number | null; stdout: string }> {
    h = await createHarness({ intents });
    home = await mkdtemp(join(tmpdir(), 'ig-home-'));
    const env = { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), INTENT_GOVERNOR_INTENT: '' };
    return runHook('claude', hookFixture('claude', 'pre-write-in-scope', h.root), ['--intent', 'auth-refactor'], env);
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
