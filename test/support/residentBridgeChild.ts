// A resident governor in its own process, as the extension (or `governor mcp`) holds one: the hook bridge with its
// before-contents in memory and the workspace's real trace. Usage: node residentBridgeChild.js <workspace>
// Reads one bridge request (JSON) per line on stdin and prints the answer (JSON) per line; tests kill it mid-way.
import { createInterface } from 'node:readline';
import { MemoryBeforeStash } from '../../src/core/bridge/beforeStash';
import { NativeToolBridge } from '../../src/core/bridge/nativeToolBridge';
import { Governor } from '../../src/core/governor';
import { createNodeServices, denyingApprover } from '../../src/core/nodeServices';
import { createTraceStack } from '../../src/core/trace/traceStack';

async function main(): Promise<void> {
  const [root] = process.argv.slice(2);
  const { sink } = createTraceStack({ workspaceRoot: root, toolVersion: '0.0.0-resident-child', anchorDir: process.env.INTENT_GOVERNOR_ANCHOR_DIR });
  const governor = new Governor(await createNodeServices({ root, approver: denyingApprover, trace: sink }));
  const bridge = new NativeToolBridge(governor, new MemoryBeforeStash(), { askHuman: false, resident: true });
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const answer = await bridge.handle(JSON.parse(line));
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
  await sink.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`child failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
