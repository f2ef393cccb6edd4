import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultAnchorDir, FileAnchorStore } from '../../../../src/core/trace/anchorStore';
import { traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

const head = (n: number) => ({ hash: `sha256:${String(n).repeat(64).slice(0, 64)}`, line: n, size: n * 100, updated: '2026-01-01T00:00:00.000Z' });

describe('anchorStore', () => {
  let ws: TraceWorkspace;
  beforeEach(async () => {
    ws = await traceWorkspace();
  });
  afterEach(() => ws.dispose());

  it('lives under the user config dir unless INTENT_GOVERNOR_ANCHOR_DIR says otherwise', () => {
    assert.equal(defaultAnchorDir({ INTENT_GOVERNOR_ANCHOR_DIR: '/tmp/a' }), '/tmp/a');
    assert.equal(defaultAnchorDir({ XDG_CONFIG_HOME: '/home/u/.cfg' }), '/home/u/.cfg/intent-governor/anchors');
    if (process.platform !== 'win32') assert.equal(defaultAnchorDir({ HOME: '/home/u' }), '/home/u/.config/intent-governor/anchors');
  });

  it('keeps one file per log, named by the sha256 of the workspace path, with a head per branch', async () => {
    await ws.anchors.write('.orchestration/agent_trace.jsonl', 'refs/heads/main', head(1));
    await ws.anchors.write('.orchestration/agent_trace.jsonl', 'refs/heads/topic', head(2));
    await ws.anchors.write('.orchestration/governance_log.jsonl', 'refs/heads/main', head(3));
    assert.deepEqual(await ws.anchors.read('.orchestration/agent_trace.jsonl', 'refs/heads/main'), head(1));
    assert.deepEqual(await ws.anchors.read('.orchestration/agent_trace.jsonl', 'refs/heads/topic'), head(2));
    assert.deepEqual(await ws.anchors.read('.orchestration/governance_log.jsonl', 'refs/heads/main'), head(3));
    assert.equal(await ws.anchors.read('.orchestration/agent_trace.jsonl', ''), undefined);
    const key = createHash('sha256').update(ws.root).digest('hex');
    assert.deepEqual((await readdir(ws.anchorDir)).sort(), [`${key}-agent_trace.json`, `${key}-governance_log.json`]);
    if (process.platform !== 'win32') assert.equal((await stat(join(ws.anchorDir, `${key}-agent_trace.json`))).mode & 0o777, 0o600);
  });

  it('keeps what a human accepted apart from the heads, so writers moving the head never drop it', async () => {
    const log = '.orchestration/agent_trace.jsonl';
    await ws.anchors.write(log, '', head(1));
    await ws.anchors.accept(log, [head(7).hash]);
    await ws.anchors.write(log, '', head(2));
    const fresh = new FileAnchorStore(ws.root, ws.anchorDir);
    assert.deepEqual([...(await fresh.accepted(log))], [head(7).hash]);
    await writeFile(await ws.anchors.fileFor(log, '.accepted.json'), '{"accepted": [');
    assert.equal((await fresh.accepted(log)).size, 0, 'a damaged list accepts nothing');
  });

  it('reads a damaged anchor file as no anchor rather than failing', async () => {
    await ws.anchors.write('.orchestration/agent_trace.jsonl', '', head(1));
    await writeFile(await ws.anchors.fileFor('.orchestration/agent_trace.jsonl'), '{"heads":');
    assert.equal(await ws.anchors.read('.orchestration/agent_trace.jsonl', ''), undefined);
  });
});
