// A separate writer process for the crash and concurrency tests. Prints `ack <invocation_id>` after each
// record is acknowledged. Usage: node traceWriterChild.js <workspace> <tag> <count|forever> <fsync> <inFlight> <filesPerRecord> [tear]
// With `tear`, after the first ack it takes the log's lock, writes half a line (what a kill inside write(2)
// leaves), prints `torn` and waits to be killed while still holding the lock.
import { appendFileSync } from 'node:fs';
import { FileAnchorStore, defaultAnchorDir } from '../../src/core/trace/anchorStore';
import { acquireLock } from '../../src/core/io/crossProcessLock';
import { traceFilePath } from '../../src/core/trace/traceFiles';
import type { FsyncMode } from '../../src/core/trace/chainedLog';
import { JsonlTraceSink } from '../../src/core/trace/traceWriter';
import type { FileChange } from '../../src/core/trace/traceSink';

async function main(): Promise<void> {
  const [root, tag, countArg, fsync, inFlightArg, filesArg, tear] = process.argv.slice(2);
  const count = countArg === 'forever' ? Infinity : Number(countArg);
  const inFlight = Number(inFlightArg);
  const filesPerRecord = Number(filesArg);
  const sink = new JsonlTraceSink({
    workspaceRoot: root,
    toolVersion: '0.1.0-child',
    anchors: new FileAnchorStore(root, defaultAnchorDir()),
    fsync: fsync as FsyncMode,
    lock: { timeoutMs: 120_000 },
  });
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < count) {
      const n = next++;
      const id = `${tag}-${n}`;
      const files: FileChange[] = [];
      for (let f = 0; f < filesPerRecord; f += 1) {
        files.push({ path: `src/${tag}/module-${n}-${f}.ts`, before: `// ${id}\n`, after: `// ${id}\nexport const v${f} = ${n};\n` });
      }
      await sink.recordMutation({
        timestamp: new Date().toISOString(),
        invocation_id: id,
        session_id: `session-${tag}`,
        agent: { name: `agent-${tag}`, model_id: 'test-model' },
        intent_id: 'INT-001',
        tool: 'write_file',
        mutation_class: 'write',
        files,
        decision: 'allow',
      });
      process.stdout.write(`ack ${id}\n`);
      if (tear === 'tear') {
        await acquireLock(`${traceFilePath(root)}.lock`);
        appendFileSync(traceFilePath(root), `{"files":[{"conversations":[{"contributor":{"type":"ai"},"ranges":[{"content_hash":"sha256:${tag}`);
        process.stdout.write('torn\n');
        setInterval(() => undefined, 1000);
        await new Promise(() => undefined);
      }
    }
  };
  if (tear === 'tear') {
    await one().catch(() => undefined);
    return;
  }
  await Promise.all(Array.from({ length: inFlight }, one));
  await sink.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`child failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
