import { join } from 'node:path';
import type * as CodeCache from './codeCache';
import { runHookFlow, type HeadlessDecider } from './hookFlow';
import { armHookWatchdog } from './hookWatchdog';
import { exitAfterOutput, processIO } from './processIO';
import { askStartingResident, startResident } from './residentStarter';
import { homeStore } from '../core/paths/userStores';

/**
 * dist/hook.js: `governor hook` in a small bundle, because agents start one process per tool call. It has
 * no governor of its own; when no extension runs, it loads the headless governor (dist/hook-headless.js
 * beside it) through a V8 code cache under the governor's home directory.
 * Usage as for the CLI: `node dist/hook.js hook <agent> [options]`.
 */
const loadHeadless: HeadlessDecider = async (request, root, intent, io) => {
  // This call is decided here; the next ones go to the workspace's resident governor, with no Node.js to start.
  startResident(root, io.env, join(__dirname, 'cli.js'));
  if (request.phase === 'pre' && request.unposted) {
    const answer = await askStartingResident(root, intent ? { ...request, intent_id: intent } : request, io.env);
    if (answer) return answer;
  }
  const headless = headlessBundle(io.env);
  try {
    return await headless.exports.decideHeadless(request, root, intent, io);
  } finally {
    headless.saveCache();
  }
};

type ProcessIO = ReturnType<typeof processIO>;

/** What dist/hook-headless.js (headlessDecider.ts) exports to this bundle. */
interface HeadlessBundle {
  decideHeadless: HeadlessDecider;
  runHookJob(file: string, io: ProcessIO): Promise<number>;
  runCompletionJob(file: string, io: ProcessIO): Promise<number>;
  runIntentMapJob(root: string, io: ProcessIO): Promise<number>;
}

/** The headless governor's bundle, through the V8 code cache under the governor's home. */
function headlessBundle(env: NodeJS.ProcessEnv) {
  // Required here: with an extension running, the process never loads the cache's modules (vm, crypto).
  const { requireWithCodeCache } = require('./codeCache') as typeof CodeCache;
  return requireWithCodeCache<HeadlessBundle>(join(__dirname, 'hook-headless.js'), homeStore('code-cache', env));
}

/**
 * The detached workers a hook process starts, each run here with its one argument: a background hook (see
 * detachedHookJobs), the completion of a change whose post will not come (see completionJobs), the intent map's
 * rebuild (see detachedIntentMap).
 */
const WORKERS: Record<string, (bundle: HeadlessBundle, arg: string, io: ProcessIO) => Promise<number>> = {
  'hook-job': (bundle, file, io) => bundle.runHookJob(file, io),
  'complete-job': (bundle, file, io) => bundle.runCompletionJob(file, io),
  'intent-map-job': (bundle, root, io) => bundle.runIntentMapJob(root, io),
};

if (require.main === module) {
  const io = processIO();
  const [command, ...rest] = process.argv.slice(2);
  const worker = command !== undefined && Object.hasOwn(WORKERS, command) ? WORKERS[command] : undefined;
  if (worker) {
    const arg = rest[0];
    (arg === undefined ? Promise.resolve(2) : worker(headlessBundle(io.env).exports, arg, io)).then(exitAfterOutput, () => exitAfterOutput(1));
  } else if (command !== 'hook') {
    process.stderr.write("Intent Governor blocked this call: usage is 'node hook.js hook <agent> [options]'.\n");
    exitAfterOutput(2);
  } else {
    runHookFlow(rest, io, loadHeadless, armHookWatchdog).then(exitAfterOutput, (error: unknown) => {
      // Exit 2 blocks the call in every agent we serve: a crash never lets a tool through.
      process.stderr.write(`Intent Governor blocked this call: internal error (${error instanceof Error ? error.message : String(error)}).\n`);
      exitAfterOutput(2);
    });
  }
}
