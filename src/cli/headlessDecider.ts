import { join } from 'node:path';
import { FileBeforeStash } from '../core/bridge/beforeStash';
import { NativeToolBridge } from '../core/bridge/nativeToolBridge';
import { nullLogger } from '../core/logger';
import { denyingApprover } from '../core/nodeServices';
import { existsSync, rmSync } from 'node:fs';
import type { DetachedHookJob } from '../core/userHooks/detachedHookJob';
import { UserHookRunner } from '../core/userHooks/userHookRunner';
import { rebuildFiles, serveRebuilds } from '../core/intentMap/backgroundRebuild';
import { IntentMapKeeper } from '../core/intentMap/intentMapKeeper';
import { readRegularFileSync } from '../core/io/regularFile';
import type { CliIO } from './cliCommand';
import { detachedHookJobs } from './detachedHookJobs';
import { detachedCompletions, type CompletionJob } from './completionJobs';
import { holdExpected } from '../core/bridge/selfCompletions';
import { detachedIntentMap } from './detachedIntentMap';
import { governorHome, type HeadlessDecider } from './hookFlow';
import { deferredNotice } from '../core/signing/firstUseKey';
import { typescriptThroughCodeCache } from './typescriptCodeCache';
import { cliServices, cliTraceStack, openCliGovernor } from './cliGovernor';

/**
 * No extension governs the workspace: judge here (an `ask` goes back to the agent) and trace to the
 * workspace's logs. Also its own bundle, dist/hook-headless.js, which dist/hook.js loads only when no
 * extension runs: it holds the governor and nothing else of the CLI.
 */
export const decideHeadless: HeadlessDecider = async (request, root, intent, io) => {
  const parser = typescriptThroughCodeCache(governorHome(io.env));
  const home = governorHome(io.env);
  // This process ends with its answer: background hooks (async, asyncRewake) run on in a detached worker.
  const worker = join(__dirname, 'hook.js'); // the small hook bundle beside this one runs `hook-job`
  const entry = existsSync(worker) ? worker : undefined;
  // The intent map too: this process only asks, and a detached `intent-map-job` rebuilds it.
  const intentMap = detachedIntentMap(home, root, entry, nullLogger);
  // The agent reads this process's stderr: a first-use key notice waits for the person's next governor command.
  const { governor, close } = await openCliGovernor(root, io.env, { approver: denyingApprover, announce: deferredNotice(home), extra: { intentMap, ...(entry ? { hookJobs: detachedHookJobs(home, entry) } : {}) } });
  try {
    // A change whose post will not come is recorded by a detached worker once the tool wrote it.
    const handOff = entry ? detachedCompletions(home, entry, root) : undefined;
    const bridge = new NativeToolBridge(governor, new FileBeforeStash(join(home, 'bridge')), { askHuman: false, ...(handOff ? { handOff } : {}) });
    try {
      return await bridge.handle(intent ? { ...request, intent_id: intent } : request);
    } finally {
      await governor.userHooks.drain(); // only hooks that could not be detached
      await intentMap.settle();
    }
  } finally {
    parser.save();
    await close();
  }
};

/** The worker side of a detached background hook: `node hook.js hook-job <file>`. */
export async function runHookJob(file: string, io: CliIO): Promise<number> {
  const read = readRegularFileSync(file, { maxBytes: MAX_JOB_BYTES });
  rmSync(file, { force: true });
  if (!read.ok) return 1;
  const job = JSON.parse(read.bytes.toString('utf8')) as DetachedHookJob;
  const { sink: trace } = cliTraceStack(job.root, io.env, deferredNotice(governorHome(io.env)));
  try {
    await new UserHookRunner(await cliServices(job.root, io.env, { approver: denyingApprover, trace })).runDetached(job);
    return 0;
  } finally {
    await trace.close();
  }
}

/**
 * The worker side of a change a one-shot hook handed off (detachedCompletions): `node hook.js complete-job <file>`.
 * It looks every COMPLETION_LOOK_MS whether the files hold what the tool was asked to write, and records the change
 * as its post would have once they do, or after COMPLETION_WAIT_MS whatever they hold (a tool that failed leaves
 * nothing to record; one still running is recorded by a later reconciliation).
 */
export async function runCompletionJob(file: string, io: CliIO): Promise<number> {
  const read = readRegularFileSync(file, { maxBytes: MAX_COMPLETION_JOB_BYTES });
  rmSync(file, { force: true });
  if (!read.ok) return 1;
  const job = JSON.parse(read.bytes.toString('utf8')) as CompletionJob;
  for (const until = Date.now() + COMPLETION_WAIT_MS; Date.now() < until && !holdExpected(job.files); ) await new Promise((resolve) => setTimeout(resolve, COMPLETION_LOOK_MS));
  const home = governorHome(io.env);
  const { governor, close } = await openCliGovernor(job.root, io.env, { approver: denyingApprover, announce: deferredNotice(home) });
  try {
    await new NativeToolBridge(governor, new FileBeforeStash(join(home, 'bridge')), { askHuman: false }).complete(job.post);
    await governor.userHooks.drain();
    return 0;
  } finally {
    await close();
  }
}

const COMPLETION_LOOK_MS = 25;
const COMPLETION_WAIT_MS = 5_000;
/** A job carries the content written: up to the cap of a governed call's request. */
const MAX_COMPLETION_JOB_BYTES = 64 * 1024 * 1024;

/** The intent map's background worker: `node hook.js intent-map-job <root>` (see detachedIntentMap). */
export async function runIntentMapJob(root: string, io: CliIO): Promise<number> {
  const keeper = new IntentMapKeeper({ workspaceRoot: root });
  let failed = false;
  await serveRebuilds(rebuildFiles(governorHome(io.env), root), async () => {
    const built = await keeper.refresh();
    failed ||= !built.ok;
    return built.ok;
  }, { delayMs: INTENT_MAP_JOB_DELAY_MS });
  return failed ? 1 : 0;
}

/** A burst of one-shot hook calls (an agent editing several files) is one rebuild. */
const INTENT_MAP_JOB_DELAY_MS = 300;

/** A job is a hook input and a few ids: far below this. */
const MAX_JOB_BYTES = 1024 * 1024;
