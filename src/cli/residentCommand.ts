import { appendFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileSignature } from '../core/io/fileSignature';
import { localProcessGone } from '../core/io/processIdentity';
import { join } from 'node:path';
import { ENDPOINTS_IN_HOME, residentEndpointPath } from '../core/agents/common/residentProtocol';
import { agentHookRoute } from '../core/bridge/agentHookRoute';
import { postsAnsweredEarly } from '../core/bridge/earlyPosts';
import { hookTimingsRecorder } from '../core/bridge/hookTimings';
import { hookRoute } from '../core/bridge/hookRoute';
import { FileBeforeStash, ResidentBeforeStash } from '../core/bridge/beforeStash';
import { findGoverningServer } from '../core/bridge/extensionClient';
import { NativeToolBridge } from '../core/bridge/nativeToolBridge';
import { agentSweepMs } from '../core/bridge/sessionAgents';
import { removeOwnResidentEndpoint, residentEndpointPid, writeResidentEndpoint } from '../core/bridge/residentEndpoint';
import { IntentMapKeeper } from '../core/intentMap/intentMapKeeper';
import { startLocalServer } from '../core/localServer/localServer';
import type { Logger } from '../core/logger';
import { tryLeaseFolder } from '../core/mcp/workspaceLease';
import { denyingApprover } from '../core/nodeServices';
import { governorHome } from '../core/paths/governorHome';
import { deferredNotice } from '../core/signing/firstUseKey';
import { fireConfigChanges, HookFileChanges } from '../core/userHooks/configChange';
import { physicalPath, sameFolder } from '../core/paths/sameFolder';
import { parseCliArgs, usageError, workspaceFrom } from './cliArgs';
import { openCliGovernor } from './cliGovernor';
import { watchEventLoop } from './eventLoopWatchdog';
import { residentStartMarker } from './residentStarter';
import { readIntentsAhead, tierResidentCode } from './residentWarmStart';
import { residentWatch } from './residentWatch';
import type { CliCommand, CliIO } from './cliCommand';
import { storeIn } from '../core/paths/userStores';

const DEFAULT_IDLE_MS = 10 * 60_000;

const USAGE = `governor resident: the workspace's resident governor for agents' hooks

Usage: governor resident [--workspace DIR] [--idle-ms N]

Serves the hook calls of every agent in the workspace from one long-lived process, so the installed hooks
start no Node.js per tool call (the hook launcher reaches it over bash's /dev/tcp) and every agent session keeps its
state here: the intent it bound, what it read (a file changed after the agent read it is STALE_FILE), its
approvals. The first hook call of an agent starts it when no VS Code governs the workspace (set
INTENT_GOVERNOR_RESIDENT=off to never start one); one runs per workspace, and it stops when VS Code starts
governing the workspace, when .orchestration/ is gone, when .vscode/settings.json changes (its approval
mode is read at start), or after --idle-ms without a call (default ${DEFAULT_IDLE_MS / 60_000} min,
or INTENT_GOVERNOR_RESIDENT_IDLE_MS). Its log is ~/.intent-governor/run/resident.log.
`;

/** The intent map is rebuilt once the agents have been quiet this long. */
const INTENT_MAP_DELAY_MS = 2_000;

/** The resident as the agent that fires ConfigChange (`agent.name` in the hook's input). */
const RESIDENT_WATCHER = 'governor-resident';

/** The longest a stop may take before the process exits anyway. */
const FORCED_EXIT_MS = 15_000;

/** How often it looks whether it should still serve, and whether a hooks file changed. */
const WATCH_MS = 1_000;

/**
 * How long its event loop may stand still before a watchdog thread kills it (INTENT_GOVERNOR_RESIDENT_STALL_MS): a
 * judgment stuck that long in JavaScript already failed every waiting call, and would hold every later one forever.
 */
const DEFAULT_STALL_MS = 15_000;

/** A log file under the governor's home: the resident has no terminal. */
function fileLogger(file: string, root: string): Logger {
  const line = (level: string) => (message: string) => {
    try {
      appendFileSync(file, `${new Date().toISOString()} [${process.pid} ${root}] ${level} ${message}\n`);
    } catch {
      // a log that cannot be written must not stop the governor
    }
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}


export const residentCommand: CliCommand = {
  name: 'resident',
  summary: "Serve every agent's hooks for a workspace from one process (started on demand)",
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { workspace: { type: 'string' }, 'idle-ms': { type: 'string' } });
    if (!parsed.ok) return usageError(io, 'resident', parsed.message);
    const idleMs = Number(parsed.values['idle-ms'] ?? (io.env.INTENT_GOVERNOR_RESIDENT_IDLE_MS || DEFAULT_IDLE_MS));
    if (!Number.isInteger(idleMs) || idleMs < 1_000) return usageError(io, 'resident', '--idle-ms must be an integer of at least 1000');
    const root = await workspaceFrom(parsed.values.workspace, io, 'resident');
    if (root === undefined) return 2;
    return serveResident(root, idleMs, io);
  },
};

async function serveResident(root: string, idleMs: number, io: CliIO): Promise<number> {
  tierResidentCode();
  const home = governorHome(io.env);
  const runDir = join(home, ENDPOINTS_IN_HOME);
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const logger = fileLogger(join(runDir, 'resident.log'), root);
  const servers = storeIn(home, 'servers');
  const extensionGoverns = async () => existsSync(servers) && (await findGoverningServer(root, servers)) !== undefined;
  if (await extensionGoverns()) return 0; // VS Code governs it: hooks reach the extension
  const attempt = await tryLeaseFolder(root, runDir);
  if (!attempt.held) {
    // Another resident has the folder. When it already serves, this start lost a race with it coming up: its start
    // marker would hold back the next start for a while, so a crash of the serving one then went unreplaced.
    const serving = residentEndpointPid(home, root);
    if (serving !== undefined && serving !== process.pid && !localProcessGone(serving, 0)) rmSync(residentStartMarker(home, root), { force: true });
    return 0;
  }
  const lease = attempt.lease;
  const stallMs = Math.max(1_000, Number(io.env.INTENT_GOVERNOR_RESIDENT_STALL_MS) || DEFAULT_STALL_MS);
  const watchdog = watchEventLoop({
    stallMs,
    logFile: join(runDir, 'resident.log'),
    message: `${root}: stopping: the event loop stood still for ${stallMs} ms (something in this process is stuck), so the process is killed; the next hook call starts a fresh governor`,
  });
  // Hooks name the folder as the shell sees it (physical) and as the agent gives it: answer for both spellings.
  const roots = new Set([root, physicalPath(root) ?? root]);
  const governs = (candidate: string) => sameFolder(candidate, root);

  // A rebuild blocks the event loop for a while: done in the agents' pauses, not between a pre and its post.
  const intentMap = new IntentMapKeeper({ workspaceRoot: root, logger, delayMs: INTENT_MAP_DELAY_MS });
  const { governor, close } = await openCliGovernor(root, io.env, { approver: denyingApprover, logger, announce: deferredNotice(home), extra: { intentMap } });
  // A call's pre may have been answered by a one-shot hook process before this one started: its stash is a file.
  // Its routes take any caller with the endpoint's token: a post is recorded only for a pre answered here, and an intent
  // a call names binds its session as the Node hook's --intent / INTENT_GOVERNOR_INTENT would.
  const bridge = new NativeToolBridge(governor, new ResidentBeforeStash(new FileBeforeStash(join(home, 'bridge'))), { askHuman: false, resident: true, routes: { requestIntents: true } });
  const reconciling = bridge.startReconciling();
  const watchingAgents = bridge.watchAgents(agentSweepMs(io.env)); // a killed agent's session ends within a minute
  let lastCall = Date.now();
  let stalled: ((what: string) => void) | undefined;
  // With INTENT_GOVERNOR_WATCH=on, from a call's pre to its post the workspace is watched: a change no governed call
  // explains goes on the record. Off by default until a shell call's own writes are told apart from others' reliably.
  const watching = io.env.INTENT_GOVERNOR_WATCH === 'on' || io.env.INTENT_GOVERNOR_WATCH === 'fail';
  const watch = watching ? residentWatch(root, roots, governor, logger, io.env) : undefined;
  // Every call, whichever route it came by, keeps the resident from its idle exit.
  const judge: NativeToolBridge['handle'] = async (request, signal) => {
    lastCall = Date.now();
    watch?.before(request);
    let answer: Awaited<ReturnType<NativeToolBridge['handle']>> | undefined;
    try {
      answer = await bridge.handle(request, signal);
      return answer;
    } finally {
      watch?.after(request, answer);
      lastCall = Date.now();
    }
  };
  const server = await startLocalServer({
    logger,
    routes: [
      // A Node hook that started this resident hands it a call whose post will not come (askStartingResident).
      hookRoute({ handle: judge }),
      agentHookRoute({
        governs,
        everyTool: watching,
        env: io.env,
        intentFromEnv: true,
        answerPostEarly: postsAnsweredEarly(root, home, (request) => bridge.claimPost(request)),
        answered: hookTimingsRecorder(io.env),
        logger,
        // No call waits for a person here: one that outlives its deadline means something in this process is stuck,
        // so it hands the workspace to a fresh governor (the next call's Node hook starts one) instead of refusing on.
        stalled: (what) => stalled?.(what),
        decide: judge,
      }),
    ],
  });
  // A bug that would end the process leaves a line in the log and no endpoint behind (the launcher checks the pid too).
  const died = (error: unknown) => {
    logger.error(`stopping on an unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    for (const spelling of roots) removeOwnResidentEndpoint(home, spelling);
    process.exit(1);
  };
  process.on('uncaughtException', died);
  process.on('unhandledRejection', died);
  // Read once when the governor opened: a change to them hands the workspace to a fresh resident (the next call starts it).
  const settingsFile = join(root, '.vscode', 'settings.json');
  const settingsSeen = fileSignature(settingsFile);
  // A hooks file this governor reads changed: ConfigChange, once per change, in the order they were seen. Taken before
  // the endpoint is written: a change made once the resident is seen to serve is a change from this snapshot.
  const hookFiles = new HookFileChanges(root, home, io.env);
  // Listening before the endpoint exists: a signal nobody listens for ends the process on the spot, the file left
  // behind naming a dead pid (Ctrl-C right after start). A second signal while stopping ends it at once, endpoint gone.
  const removeEndpoints = () => {
    for (const spelling of roots) removeOwnResidentEndpoint(home, spelling);
  };
  let signalled: NodeJS.Signals | undefined;
  let onStopSignal: ((signal: NodeJS.Signals) => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled !== undefined) {
      removeEndpoints();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    signalled = signal;
    onStopSignal?.(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  process.on('exit', removeEndpoints); // every process.exit too (the forced exit below, a fatal error)
  for (const spelling of roots) writeResidentEndpoint(home, spelling, { port: server.port, token: server.token, pid: process.pid });
  rmSync(residentStartMarker(home, root), { force: true }); // up: a Node hook that finds it gone may start another at once
  logger.info(`serving ${root} on ${server.origin} (endpoint ${residentEndpointPath(home, root)}; idle exit after ${idleMs} ms)`);
  readIntentsAhead(governor, logger);

  let configChanges: Promise<void> = Promise.resolve();
  const why = await new Promise<string>((resolve) => {
    const stop = (reason: string) => {
      clearInterval(timer);
      resolve(reason);
    };
    const timer = setInterval(() => {
      // A look that fails (a file gone between two calls) is logged and tried again at the next tick.
      void (async () => {
        if (!existsSync(join(root, '.orchestration'))) return stop('the workspace is no longer governed');
        if (residentEndpointPid(home, root) !== process.pid) return stop('another governor took the workspace over');
        const changed = hookFiles.take();
        if (changed.length) configChanges = configChanges.then(() => fireConfigChanges(governor.userHooks, changed, root, RESIDENT_WATCHER, logger));
        if (fileSignature(settingsFile) !== settingsSeen) return stop('the workspace settings changed (the approval mode is read at start)');
        if (Date.now() - lastCall > idleMs) return stop(`no hook call for ${idleMs} ms`);
        if (await extensionGoverns()) return stop('VS Code governs the workspace now');
      })().catch((error: unknown) => logger.warn(`looking whether to serve on: ${error instanceof Error ? error.message : String(error)}`));
    }, WATCH_MS);
    stalled = (what) => stop(`${what} was not decided within its deadline`);
    onStopSignal = stop;
    if (signalled !== undefined) stop(signalled);
  });
  logger.info(`stopping: ${why}`);
  removeEndpoints();
  // What is stuck may hold up the shutdown too: the lease must not outlive it for long (a dead holder's is taken over).
  const forced = setTimeout(() => {
    logger.error(`stopping took over ${FORCED_EXIT_MS} ms: exiting`);
    process.exit(1);
  }, FORCED_EXIT_MS);
  forced.unref();
  await server.close();
  reconciling.dispose();
  watchingAgents.dispose();
  await bridge.close(); // changes whose post the agent never sends are completed before the trace closes
  await watch?.dispose();
  await configChanges;
  await governor.userHooks.drain();
  await intentMap.flush();
  await close();
  await lease.release();
  watchdog.dispose();
  return 0;
}
