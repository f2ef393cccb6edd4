import { join } from 'node:path';
import type * as CodeCache from './codeCache';
import { governorHome, runHookFlow, type HeadlessDecider } from './hookFlow';
import { exitAfterOutput, processIO } from './processIO';
import { askStartingResident, startResident } from './residentStarter';

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
  // Required here: with an extension running, the process never loads the cache's modules (vm, crypto).
  const { requireWithCodeCache } = require('./codeCache') as typeof CodeCache;
  const headless = requireWithCodeCache<{ decideHeadless: HeadlessDecider }>(join(__dirname, 'hook-headless.js'), join(governorHome(io.env), 'code-cache'));
  try {
    return await headless.exports.decideHeadless(request, root, intent, io);
  } finally {
    headless.saveCache();
  }
};

/** A background hook a hook process handed off (see detachedHookJobs): run it here, detached from the agent. */
function runJob(file: string | undefined, io: ReturnType<typeof processIO>): Promise<number> {
  const { requireWithCodeCache } = require('./codeCache') as typeof CodeCache;
  const headless = requireWithCodeCache<{ runHookJob(file: string, io: ReturnType<typeof processIO>): Promise<number> }>(join(__dirname, 'hook-headless.js'), join(governorHome(io.env), 'code-cache'));
  return file === undefined ? Promise.resolve(2) : headless.exports.runHookJob(file, io);
}

/** The completion worker a hook process started for a change whose post will not come (see completionJobs): record it. */
function runCompletion(file: string | undefined, io: ReturnType<typeof processIO>): Promise<number> {
  const { requireWithCodeCache } = require('./codeCache') as typeof CodeCache;
  const headless = requireWithCodeCache<{ runCompletionJob(file: string, io: ReturnType<typeof processIO>): Promise<number> }>(join(__dirname, 'hook-headless.js'), join(governorHome(io.env), 'code-cache'));
  return file === undefined ? Promise.resolve(2) : headless.exports.runCompletionJob(file, io);
}

/** The intent map's background worker a hook process started (see detachedIntentMap): rebuild it, detached from the agent. */
function runIntentMapJob(root: string | undefined, io: ReturnType<typeof processIO>): Promise<number> {
  const { requireWithCodeCache } = require('./codeCache') as typeof CodeCache;
  const headless = requireWithCodeCache<{ runIntentMapJob(root: string, io: ReturnType<typeof processIO>): Promise<number> }>(join(__dirname, 'hook-headless.js'), join(governorHome(io.env), 'code-cache'));
  return root === undefined ? Promise.resolve(2) : headless.exports.runIntentMapJob(root, io);
}

if (require.main === module) {
  const io = processIO();
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'hook-job') {
    runJob(rest[0], io).then(exitAfterOutput, () => exitAfterOutput(1));
  } else if (command === 'complete-job') {
    runCompletion(rest[0], io).then(exitAfterOutput, () => exitAfterOutput(1));
  } else if (command === 'intent-map-job') {
    runIntentMapJob(rest[0], io).then(exitAfterOutput, () => exitAfterOutput(1));
  } else if (command !== 'hook') {
    process.stderr.write("Intent Governor blocked this call: usage is 'node hook.js hook <agent> [options]'.\n");
    exitAfterOutput(2);
  } else {
    runHookFlow(rest, io, loadHeadless).then(exitAfterOutput, (error: unknown) => {
      // Exit 2 blocks the call in every agent we serve: a crash never lets a tool through.
      process.stderr.write(`Intent Governor blocked this call: internal error (${error instanceof Error ? error.message : String(error)}).\n`);
      exitAfterOutput(2);
    });
  }
}
