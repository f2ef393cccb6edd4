import type { IncomingHttpHeaders } from 'node:http';
import { isAbsolute } from 'node:path';
import { closeHookCall, openHookCall, refuseHookCall } from '../agents/hookDoor';
import { DIALECTS } from '../agents/registry';
import type { BridgeAnswer, BridgeRequest } from '../agents/common/nativeCall';
import { AGENT_HOOK_PATH, FORWARDED_ENV, forwardedEnvHeader, NOT_MINE_STATUS, RESIDENT_HEADERS, residentReplyText } from '../agents/common/residentProtocol';
import type { HookReply } from '../agents/common/hookDialect';
import type { LocalRoute } from '../localServer/routeTable';
import { MAX_REQUEST_BODY_BYTES } from '../tools/requestBodyCap';
import type { Logger } from '../logger';
import { beforeDeadline, CallDeadline } from '../beforeDeadline';
import { foldedFileNames, independentOfRecordings } from './foldedFileName';
import { cpuMsSince, type HookTimingDetail } from './hookTimings';

export interface AgentHookRouteOptions {
  /** Judges one mapped call: the resident's bridge (its sessions, read ledger and approvals). */
  decide(request: BridgeRequest, signal: AbortSignal): Promise<BridgeAnswer>;
  /** Whether this governor governs `root` (the folder the hook's cwd belongs to); if not, the launcher runs the Node hook. */
  governs(root: string): boolean;
  /** Read-only tools are decided too (not answered at the door): the resident watches each call's window. */
  everyTool?: boolean;
  /**
   * The environment the door reads (the governor home, the agent's markers); the hook's forwarded variables replace
   * their names in it. Copied once when the route is made: copying `process.env` on every call cost a tenth of a hook's time.
   */
  env: NodeJS.ProcessEnv;
  /** Headless only: an INTENT_GOVERNOR_INTENT the hook forwards binds its session, as `--intent` does (the extension uses the human's pick). */
  intentFromEnv: boolean;
  /**
   * Whether a post event may be answered at once and recorded after the answer (its record is already guaranteed by
   * the pending entry its pre left): when no user hook of the agent's door has anything to say about it. The session's
   * next call waits for that recording when what the post records could change its judgement (see mayGoAhead).
   */
  answerPostEarly?(request: BridgeRequest): boolean;
  /**
   * Told each answer's own time (the benchmark's `INTENT_GOVERNOR_HOOK_TIMINGS`): from the parsed input to the answer
   * handed to the socket, as Claude Code's hook tool measures up to its answer handed to the MCP server; how long
   * the write took to return (on a shared core it returns once the agent it woke has run), and the CPU time the
   * process spent until the hand-off.
   */
  answered?(agent: string, event: string, ms: number, more?: HookTimingDetail): void;
  /** Where a call that missed its deadline is noted, with what it was waiting on. */
  logger?: Logger;
  /** Told when a call missed its deadline (after its refusal is made): a headless governor stops serving then. */
  stalled?(what: string): void;
}

/** A post being recorded after its answer: what it holds back, and the file names it records. */
interface Recording {
  done: Promise<unknown>;
  names: ReadonlySet<string>;
}

/**
 * Whether a session's call may be judged while its previous post is still being recorded: a pre independent of that
 * recording (independentOfRecordings). Another post (records keep their order) and lifecycle events wait.
 */
function mayGoAhead(request: BridgeRequest, recording: Recording): boolean {
  return request.phase === 'pre' && independentOfRecordings(request.calls, [recording.names]);
}

/** Below the launcher's read timeout: the answer, a refusal if need be, must reach it before it gives up. */
const ANSWER_MARGIN_MS = 1_000;

/** A header's value as the shell sent it: raw bytes, which Node reads as latin1. */
function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined ? undefined : Buffer.from(text, 'latin1').toString('utf8');
}

/** The launcher's `<pid> <start>` (BridgeRequest.caller); undefined when absent or not two positive integers. */
function callerOf(text: string | undefined): { pid: number; start: number } | undefined {
  const fields = text === undefined ? undefined : /^([1-9]\d{0,9}) ([1-9]\d{0,15})$/u.exec(text);
  return fields ? { pid: Number(fields[1]), start: Number(fields[2]) } : undefined;
}

function forwardedEnv(headers: IncomingHttpHeaders, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of FORWARDED_ENV) {
    const value = headerText(headers, forwardedEnvHeader(name));
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * POST /agent-hook on a resident governor's loopback server: one agent hook event, as the agent sent it, answered
 * as the hook command would answer it (residentReplyText), through the same hook door. The launcher's thin client
 * calls it over bash's /dev/tcp, so no process starts per tool call. A folder this governor does not govern is a 421
 * and a malformed request a 400: the launcher then runs the Node hook, which refuses in the agent's own words.
 */
export function agentHookRoute(options: AgentHookRouteOptions): LocalRoute {
  /** Each session's post still being recorded after its answer went out. */
  const recording = new Map<string, Recording>();
  const baseEnv: NodeJS.ProcessEnv = { ...options.env };
  return {
    path: AGENT_HOOK_PATH,
    methods: ['POST'],
    maxBodyBytes: MAX_REQUEST_BODY_BYTES,
    async handle({ headers, body, signal }, res) {
      const started = performance.now();
      // The process's CPU time too, only for a benchmark: on a shared core the wall time holds the agent's turns.
      const cpu = options.answered ? process.cpuUsage() : undefined;
      const dialect = DIALECTS[headerText(headers, RESIDENT_HEADERS.agent) ?? ''];
      const cwd = headerText(headers, RESIDENT_HEADERS.cwd);
      const timeoutMs = Number(headerText(headers, RESIDENT_HEADERS.timeoutMs));
      if (!dialect || !cwd || !isAbsolute(cwd) || !Number.isInteger(timeoutMs) || timeoutMs < 100) {
        return { status: 400, body: { error: 'Bad agent hook request: it names a known agent, an absolute cwd and a timeout of at least 100 ms.' } };
      }
      const env = forwardedEnv(headers, baseEnv);
      const step = openHookCall(dialect, body, { cwd, env, everyTool: options.everyTool });
      let reply: HookReply;
      if (step.kind === 'reply') reply = step.reply;
      else if (!options.governs(step.root)) return { status: NOT_MINE_STATUS, body: { error: `This governor does not govern ${step.root}.` } };
      else {
        const intent = options.intentFromEnv ? env.INTENT_GOVERNOR_INTENT || undefined : undefined;
        const caller = callerOf(headerText(headers, RESIDENT_HEADERS.caller));
        const request = { ...step.request, ...(intent ? { intent_id: intent } : {}), ...(caller ? { caller } : {}) };
        const session = request.session_id;
        // Made when a wait needs it: a post answered at once has none, and a timer per call is not free.
        let deadline: CallDeadline | undefined;
        const deadlineOf = () => (deadline ??= new CallDeadline(signal, Math.max(50, timeoutMs - ANSWER_MARGIN_MS))).signal;
        const late = (waitingOn: string): HookReply => {
          const what = `${dialect.id} ${request.native?.event ?? request.phase}${request.calls.length ? ` (${request.calls.map((call) => call.tool).join(', ')})` : ''}`;
          if (!signal.aborted) {
            options.logger?.warn(`${what} in session ${session} was not decided within ${timeoutMs} ms, waiting on ${waitingOn}: refused`);
            options.stalled?.(`${what} in session ${session}`);
          }
          return refuseHookCall(dialect, `Intent Governor did not decide within ${timeoutMs} ms (it was waiting on ${waitingOn}), so the call is refused (fail closed).`);
        };
        const inFlight = recording.get(session);
        const heldBack = inFlight && !mayGoAhead(request, inFlight) ? await beforeDeadline(inFlight.done, deadlineOf()) : undefined;
        if (heldBack?.settled === false) reply = late("the recording of the session's previous change");
        else if (request.phase === 'post' && options.answerPostEarly?.(request)) {
          // Begun once the answer has left: Node writes a response on a later tick, which recording done at once would hold back.
          const done = new Promise<number>((resolve) => setImmediate(() => resolve(performance.now())))
            .then(async (begun) => {
              await options.decide(request, new AbortController().signal);
              options.answered?.(dialect.id, 'PostToolUse(recorded after the answer)', performance.now() - begun);
            })
            .catch(() => undefined); // the pending entry stays: the reconciler records it
          const entry: Recording = { done, names: foldedFileNames(request.calls) };
          recording.set(session, entry);
          void done.finally(() => {
            if (recording.get(session) === entry) recording.delete(session);
          });
          reply = closeHookCall(dialect, step, { decision: 'allow' });
        } else {
          const until = deadlineOf();
          const answer = await beforeDeadline(options.decide(request, until), until);
          reply = !answer.settled || until.aborted ? late('its judgement') : closeHookCall(dialect, step, answer.value);
        }
        deadline?.dispose();
      }
      const text = residentReplyText(reply);
      const handed = performance.now();
      const cpuMs = cpu && cpuMsSince(cpu);
      // The fewest header bytes: the launcher reads them one at a time (a shell cannot read ahead of a socket).
      res.sendDate = false;
      res.writeHead(200, { 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
      options.answered?.(dialect.id, step.kind === 'decide' ? (step.request.native?.event ?? step.request.phase) : 'answered at the door', handed - started, { writeMs: performance.now() - handed, cpuMs });
    },
  };
}
