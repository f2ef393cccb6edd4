// One door's trace stack in its own process, for the shared-anchor tests.
// Usage: node traceStackChild.js <workspace> <tag> [legacyAnchorDir]
// Reads commands on stdin: `write` records one mutation and prints `ack <full verifications so far>`;
// `close` closes the sink and exits. A full verification is counted each time the trace file is streamed
// from the start (what verifyLog does); the fast path only reads its tail.
import { createInterface } from 'node:readline';
import { createTraceStack } from '../../src/core/trace/traceStack';

// The bundle calls fs.createReadStream through the module object, so wrapping it here sees every stream.
const fs = require('node:fs') as typeof import('node:fs');
let fullVerifications = 0;
const createReadStream = fs.createReadStream;
fs.createReadStream = ((path: Parameters<typeof createReadStream>[0], options?: Parameters<typeof createReadStream>[1]) => {
  if (String(path).endsWith('agent_trace.jsonl')) fullVerifications += 1;
  return createReadStream(path, options);
}) as typeof createReadStream;

async function main(): Promise<void> {
  const [root, tag, legacyAnchorDir] = process.argv.slice(2);
  const { sink } = createTraceStack({ workspaceRoot: root, toolVersion: `0.1.0-${tag}`, legacyAnchorDir, fsync: 'never' });
  let n = 0;
  for await (const command of createInterface({ input: process.stdin })) {
    if (command === 'close') break;
    n += 1;
    await sink.recordMutation({
      timestamp: new Date().toISOString(),
      invocation_id: `${tag}-${n}`,
      session_id: `session-${tag}`,
      agent: { name: tag },
      intent_id: 'INT-001',
      tool: 'write_file',
      mutation_class: 'write',
      files: [{ path: `src/${tag}.ts`, before: `// ${n - 1}\n`, after: `// ${n}\n` }],
      decision: 'allow',
    });
    process.stdout.write(`ack ${fullVerifications}\n`);
  }
  await sink.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`child failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
