import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { FileAnchorStore } from '../../../../src/core/trace/anchorStore';
import { TRACE_FILE } from '../../../../src/core/trace/traceFiles';
import { createTraceStack, type TraceStack } from '../../../../src/core/trace/traceStack';
import { JsonlTraceSink } from '../../../../src/core/trace/traceWriter';
import { bundledScript } from '../../../support/bundledScript';
import { finished } from '../../../support/childProcesses';
import { runGovernor } from '../../../support/runGovernor';
import { mutationEvent, traceWorkspace, type TraceWorkspace } from '../../../support/traceFixtures';

/** What the extension host builds: no anchor directory of its own, the old global-storage one to adopt from. */
function extensionStack(ws: TraceWorkspace): TraceStack {
  const saved = process.env.INTENT_GOVERNOR_ANCHOR_DIR;
  // The CLI child processes get the same variable: one anchor directory for the machine, as in real use.
  process.env.INTENT_GOVERNOR_ANCHOR_DIR = ws.anchorDir;
  try {
    return createTraceStack({ workspaceRoot: ws.root, toolVersion: '0.1.0-extension', legacyAnchorDir: legacyDir(ws), fsync: 'never' });
  } finally {
    if (saved === undefined) delete process.env.INTENT_GOVERNOR_ANCHOR_DIR;
    else process.env.INTENT_GOVERNOR_ANCHOR_DIR = saved;
  }
}

const legacyDir = (ws: TraceWorkspace) => join(dirname(ws.anchorDir), 'globalStorage', 'anchors');

async function keepLines(path: string, count: number): Promise<void> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  await writeFile(path, lines.slice(0, count).map((l) => `${l}\n`).join(''));
}

describe('traceStack', function () {
  this.timeout(60_000);
  let ws: TraceWorkspace;
  const check = () => runGovernor(['check', '--workspace', ws.root], { anchorDir: ws.anchorDir });
  beforeEach(async () => {
    ws = await traceWorkspace();
  });
  afterEach(() => ws.dispose());

  it('anchors what the extension writes where governor check looks, so check sees a truncation', async () => {
    const { sink } = extensionStack(ws);
    for (let i = 0; i < 3; i += 1) await sink.recordMutation(mutationEvent());
    await sink.close();
    await keepLines(ws.trace, 1);
    const run = await check();
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /FAIL {2}\.orchestration\/agent_trace\.jsonl: TAMPERED at line 2: the log ends after line 1, but the anchor recorded 3 lines/);
  });

  it('adopts the anchor an older extension kept in its global storage, once', async () => {
    // What the extension did before: anchors in <globalStorage>/anchors, a directory no CLI reads.
    const old = new JsonlTraceSink({ workspaceRoot: ws.root, toolVersion: '0.0.9', anchors: new FileAnchorStore(ws.root, legacyDir(ws)), fsync: 'never' });
    for (let i = 0; i < 3; i += 1) await old.recordMutation(mutationEvent());
    await old.close();
    const { sink, anchors } = extensionStack(ws);
    await sink.open();
    await sink.close();
    assert.equal((await anchors.read(TRACE_FILE, ''))?.line, 3, 'the old anchor is the shared one now');
    await keepLines(ws.trace, 2);
    const run = await check();
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /TAMPERED at line 3: the log ends after line 2, but the anchor recorded 3 lines/);
  });

  it('lets the extension and the CLI take turns without either re-verifying the whole log', async () => {
    const env = { ...process.env, INTENT_GOVERNOR_ANCHOR_DIR: ws.anchorDir };
    const script = bundledScript(join(__dirname, '..', '..', '..', 'support', 'traceStackChild.ts'));
    const start = (args: string[]) => {
      const child = spawn(process.execPath, [script, ws.root, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      const acks = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      return { child, write: async () => {
        child.stdin!.write('write\n');
        const line = await acks.next();
        assert.ok(!line.done, 'the child stopped answering');
        return Number(/^ack (\d+)$/.exec(line.value)![1]);
      } };
    };
    const cli = start(['cli']);
    const extension = start(['extension', legacyDir(ws)]);
    const anchors = new FileAnchorStore(ws.root, ws.anchorDir);
    const anchorIsCurrent = async (who: string) => {
      const lines = (await readFile(ws.trace, 'utf8')).split('\n').slice(0, -1);
      const head = await anchors.read(TRACE_FILE, '');
      assert.deepEqual(
        { hash: head?.hash, line: head?.line, size: head?.size },
        { hash: JSON.parse(lines.at(-1)!).metadata.hash, line: lines.length, size: (await stat(ws.trace)).size },
        `the shared anchor is at the head after ${who} wrote`,
      );
    };
    try {
      await mkdir(dirname(ws.trace), { recursive: true });
      const first = await cli.write(); // an empty log with no anchor: the one full pass there is
      await anchorIsCurrent('the CLI');
      let extensionPasses = 0;
      let cliPasses = first;
      for (let round = 0; round < 4; round += 1) {
        extensionPasses = await extension.write();
        await anchorIsCurrent('the extension');
        cliPasses = await cli.write();
        await anchorIsCurrent('the CLI');
      }
      assert.equal(extensionPasses, 0, 'the extension never streamed the whole log');
      assert.equal(cliPasses, first, 'the CLI streamed it only for its first, unanchored write');
    } finally {
      for (const { child } of [cli, extension]) {
        const done = finished(child as ChildProcess);
        child.stdin!.end('close\n');
        await done;
      }
    }
  });
});
