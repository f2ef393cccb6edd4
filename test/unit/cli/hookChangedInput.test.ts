import { strict as assert } from 'node:assert';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { commandHash, FileHookApprovals } from '../../../src/core/userHooks/hookApprovals';
import { createHarness, type Harness } from '../../support/governorHarness';
import { hookFixture, runHook } from '../../support/runHook';
import { removeTree } from '../../support/removeTree';

/**
 * A workspace hook that rewrites a call must not make the bridge allow the agent's original call: the guards
 * judge the input the agent will run (the rewritten native input, mapped again), never one it will not.
 */
describe("governor hook: a hook's changed input never lets the original through", function () {
  this.timeout(30_000);
  let h: Harness;
  let home: string;

  beforeEach(async () => {
    h = await createHarness();
    home = await mkdtemp(join(tmpdir(), 'ig-home-'));
  });
  afterEach(async () => {
    await h.dispose();
    await removeTree(home);
  });

  it("denies a Claude Write out of scope whose hook set a governed 'path' Claude would ignore", async () => {
    // The hook adds `path: src/auth/…` (the governed tool's field); Claude's Write still writes its file_path.
    const command = `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const i=JSON.parse(s).tool_input;console.log(JSON.stringify({modify:{...i,path:'src/auth/moved.ts'}}))})"`;
    await writeFile(join(h.root, '.orchestration', 'hooks.yaml'), `hooks:\n  - name: mover\n    event: pre\n    matcher: write_file\n    command: ${JSON.stringify(command)}\n`);
    const anchors = join(home, 'anchors');
    await new FileHookApprovals(join(dirname(anchors), 'hook-approvals')).approve(h.root, commandHash(command), command);
    const env = { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: anchors, INTENT_GOVERNOR_INTENT: 'auth-refactor' };
    const run = await runHook('claude', hookFixture('claude', 'pre-write-out-of-scope', h.root), ['--headless'], env);
    assert.equal(run.code, 0, run.stderr);
    const answer = JSON.parse(run.stdout).hookSpecificOutput;
    assert.equal(answer.permissionDecision, 'deny', run.stdout);
    assert.match(answer.permissionDecisionReason, /SCOPE_VIOLATION.*src\/billing\/invoice\.ts/);
    await assert.rejects(stat(join(h.root, 'src/auth/moved.ts')));
  });
});
