import { strict as assert } from 'node:assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGovernor } from '../../support/runGovernor';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../support/traceFixtures';

describe('governor blame', function () {
  this.timeout(60_000);
  let ws: TraceWorkspace;

  beforeEach(async () => {
    ws = await traceWorkspace();
    const sink = ws.sink();
    await sink.recordMutation(mutationEvent({
      intent_id: 'INT-API', agent: { name: 'claude-code', model_id: 'claude-sonnet-4-5' }, timestamp: '2026-03-01T09:00:00.000Z',
      files: [{ path: 'src/api.ts', after: 'export function api() {\n  return 42;\n}\n' }],
    }));
    await sink.close();
    await mkdir(join(ws.root, 'src'));
    // A human added a header above the agent's function since.
    await writeFile(join(ws.root, 'src', 'api.ts'), '// header\nexport function api() {\n  return 42;\n}\n');
  });
  afterEach(() => ws.dispose());

  it('shows who wrote each line, relative to the current directory', async () => {
    const run = await runGovernor(['blame', 'api.ts', '--workspace', ws.root], { anchorDir: ws.anchorDir, cwd: join(ws.root, 'src') });
    assert.equal(run.code, 0, run.stderr);
    const rows = run.stdout.trim().split('\n');
    assert.match(rows[0], /^1 \(unattributed\)\s+\| \/\/ header$/);
    assert.match(rows[1], /^2 [0-9a-f]{8} INT-API\s+claude-code\s+claude-sonnet-4-5\s+2026-03-01 \| export function api\(\) \{$/);
    assert.equal(rows.at(-1), '3 of 4 lines attributed to trace records');
  });

  it('finds the workspace above the current directory, and takes FILE from the workspace root when --workspace is given elsewhere', async () => {
    const nested = await runGovernor(['blame', 'api.ts'], { anchorDir: ws.anchorDir, cwd: join(ws.root, 'src') });
    assert.equal(nested.code, 0, nested.stderr);
    assert.equal(nested.stdout.trim().split('\n').at(-1), '3 of 4 lines attributed to trace records');
    const elsewhere = await runGovernor(['blame', 'src/api.ts', '--workspace', ws.root], { anchorDir: ws.anchorDir, cwd: ws.anchorDir });
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.equal(elsewhere.stdout.trim().split('\n').at(-1), '3 of 4 lines attributed to trace records');
  });

  it('says where it looked when no governed workspace is above the current directory', async () => {
    const run = await runGovernor(['blame', 'x.ts'], { anchorDir: ws.anchorDir, cwd: ws.anchorDir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no governed workspace here: looked for a \.orchestration\/ folder in .*anchors and every folder above it/);
  });

  it('prints JSON with --json', async () => {
    const run = await runGovernor(['blame', 'src/api.ts', '--json'], { anchorDir: ws.anchorDir, cwd: ws.root });
    assert.equal(run.code, 0, run.stderr);
    const lines = JSON.parse(run.stdout) as { line: number; intentId?: string; agent?: string; text: string }[];
    assert.deepEqual(lines.map((l) => [l.line, l.intentId ?? null, l.agent ?? null]), [
      [1, null, null],
      [2, 'INT-API', 'claude-code'],
      [3, 'INT-API', 'claude-code'],
      [4, 'INT-API', 'claude-code'],
    ]);
  });

  it('exits 2 for a file outside the workspace or one that does not exist', async () => {
    const outside = await runGovernor(['blame', join(ws.anchorDir, 'x.ts'), '--workspace', ws.root], { anchorDir: ws.anchorDir });
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /is not a file of the workspace .* \(looked at .*x\.ts\)/);
    const missing = await runGovernor(['blame', 'src/none.ts'], { anchorDir: ws.anchorDir, cwd: ws.root });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read .*ENOENT/);
    const none = await runGovernor(['blame'], { anchorDir: ws.anchorDir, cwd: ws.root });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /expected exactly one FILE/);
  });
});
