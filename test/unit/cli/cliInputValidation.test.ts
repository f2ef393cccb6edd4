import { strict as assert } from 'node:assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { echoArg, ECHO_LIMIT, oneOf, workspacePattern } from '../../../src/cli/cliArgs';
import { runGovernor } from '../../support/runGovernor';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../support/traceFixtures';

describe('CLI input validation (the real CLI)', function () {
  this.timeout(60_000);
  let ws: TraceWorkspace;
  const governor = (...args: string[]) => runGovernor(args, { anchorDir: ws.anchorDir, cwd: ws.root });

  beforeEach(async () => {
    ws = await traceWorkspace();
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent({ intent_id: 'INT-001', files: [{ path: 'src/app.ts', after: 'a\n' }] }));
    await sink.close();
    await mkdir(join(ws.root, 'src'));
    await writeFile(join(ws.root, 'src', 'app.ts'), 'a\n');
  });
  afterEach(() => ws.dispose());

  it('refuses trace --decision maybe with exit 2 and the allowed values, as --class BOGUS', async () => {
    const decision = await governor('trace', '--decision', 'maybe');
    assert.equal(decision.code, 2);
    assert.equal(decision.stdout, '');
    assert.match(decision.stderr, /--decision 'maybe' is not one of allow, approved/);
    const changeClass = await governor('trace', '--class', 'BOGUS');
    assert.equal(changeClass.code, 2);
    assert.match(changeClass.stderr, /--class 'BOGUS' is not one of AST_REFACTOR, INTENT_EVOLUTION/);
    const allowed = await governor('trace', '--decision', 'allow');
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /1 record\n$/);
  });

  it('refuses trace --file outside the workspace, and takes an absolute path inside it as workspace-relative', async () => {
    for (const outside of ['/etc/passwd', '../elsewhere/*.ts']) {
      const run = await governor('trace', '--file', outside);
      assert.equal(run.code, 2, `${outside}: ${run.stdout}`);
      assert.match(run.stderr, /is outside the workspace .*; give a path or glob relative to it/);
    }
    const inside = await governor('trace', '--file', join(ws.root, 'src', 'app.ts'));
    assert.equal(inside.code, 0, inside.stderr);
    assert.match(inside.stdout, /1 record\n$/);
    const glob = await governor('trace', '--file', 'src/**');
    assert.match(glob.stdout, /1 record\n$/);
  });

  it('does not echo a 100 KB argument back', async () => {
    const long = 'x'.repeat(100_000);
    for (const args of [['blame', long], ['blame', `/${long}`], ['trace', '--decision', long], ['trace', '--file', `/${long}`], ['trace', `--${long}`]]) {
      const run = await governor(...args);
      assert.equal(run.code, 2, args[0]);
      assert.ok(run.stderr.length < 1_000, `${args[0]} ${args[1].slice(0, 10)}: ${run.stderr.length} characters`);
      assert.ok(run.stdout.length < 1_000);
    }
    const blame = await governor('blame', long);
    assert.match(blame.stderr, /x…' \(100\d{3} characters\)/);
  });
});

describe('cliArgs helpers', () => {
  it('echoArg quotes a short argument whole and cuts a long one, saying how long it was', () => {
    assert.equal(echoArg('maybe'), "'maybe'");
    assert.equal(echoArg('y'.repeat(ECHO_LIMIT + 1)), `'${'y'.repeat(ECHO_LIMIT)}…' (${ECHO_LIMIT + 1} characters)`);
  });

  it('oneOf names the allowed values', () => {
    assert.deepEqual(oneOf('decision', 'allow', ['allow', 'approved']), { ok: true, value: 'allow' });
    assert.deepEqual(oneOf('decision', 'Allow', ['allow', 'approved']), { ok: false, message: "--decision 'Allow' is not one of allow, approved" });
  });

  it('workspacePattern keeps relative globs, relativises absolute paths inside and refuses paths leading out', () => {
    assert.deepEqual(workspacePattern('file', 'src/**/*.ts', '/ws'), { ok: true, value: 'src/**/*.ts' });
    assert.deepEqual(workspacePattern('file', '/ws/src/a.ts', '/ws'), { ok: true, value: 'src/a.ts' });
    for (const outside of ['/etc/passwd', '..', '../x', 'src/../../x', '/wsx/a.ts']) {
      assert.equal(workspacePattern('file', outside, '/ws').ok, false, outside);
    }
  });
});
