import { agentsBench } from './agentsBench';
import { hookAgentsBench } from './hookAgentsBench';
import { vscodeAgentBench } from './vscodeAgentBench';
import { bridgeBench } from './bridgeBench';
import { changeClassBench } from './changeClassBench';
import { chainBench } from './chainBench';
import { checkBaseBench } from './checkBaseBench';
import { intentMapBench } from './intentMapBench';
import { mcpBench } from './mcpBench';
import { sandboxBench } from './sandboxBench';
import { inspectorBench } from './inspectorBench';
import { redactionBench } from './redactionBench';
import { residentBench } from './residentBench';
import { formatTable, type BenchSuite } from './table';
import { telemetryBench } from './telemetryBench';
import { traceBench } from './traceBench';
import { writeLockBench } from './writeLockBench';

/**
 * Every benchmark suite; `npm run bench -- <name>` runs only the named ones. The inspector runs last: it
 * starts VS Code and a browser, whose shutdown would still load the machine while the next suite measures.
 */
const SUITES: BenchSuite[] = [chainBench, writeLockBench, traceBench, redactionBench, telemetryBench, changeClassBench, intentMapBench, mcpBench, sandboxBench, bridgeBench, residentBench, agentsBench, inspectorBench];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  // hook-agents and vscode-agent are part of agents, check-base of trace; by their own names they run alone.
  const suites = only.length ? [...SUITES, hookAgentsBench, vscodeAgentBench, checkBaseBench].filter((s) => only.includes(s.name)) : SUITES;
  for (const suite of suites) {
    for (const table of await suite.run()) process.stdout.write(formatTable(table));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
