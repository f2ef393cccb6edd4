import { existsSync } from 'node:fs';
import { claudeDialect } from '../core/agents/claude/claudeDialect';
import { DIALECTS } from '../core/agents/registry';
import { askExtension, findGoverningServer } from '../core/bridge/extensionClient';
import type { HookDialect, HookEvent, HookReply } from '../core/agents/common/hookDialect';
import type { BridgeAnswer, BridgeRequest } from '../core/agents/common/nativeCall';
import { closeHookCall, openHookCall, refuseHookCall } from '../core/agents/hookDoor';
import { currentProcess } from '../core/io/processIdentity';
import { governorHome } from '../core/paths/governorHome';
import { parseCliArgs, usageError } from './cliArgs';
import type { CliIO } from './cliCommand';
import type { HookWatchdog } from './hookWatchdog';
import { homeStore } from '../core/paths/userStores';

/**
 * `governor hook`'s flow up to the decision: read, parse and map the payload, ask a running extension. Kept
 * free of the governor itself, so dist/hook.js (one process per agent tool call) starts small and loads the
 * headless governor from dist/cli.js only when no extension runs.
 */
export type HeadlessDecider = (request: BridgeRequest, root: string, intent: string | undefined, io: Pick<CliIO, 'cwd' | 'env'>) => Promise<BridgeAnswer>;

export { DIALECTS };

/** Below VS Code's default hook timeout (30 s): an agent that times a hook out may run the tool anyway. */
const DEFAULT_TIMEOUT_MS = 25_000;

const USAGE = `governor hook: govern an agent's native tools (its hook command)

Usage: governor hook <${Object.keys(DIALECTS).join('|')}> [--workspace DIR] [--intent ID] [--timeout-ms N] [--headless]

Reads the agent's hook JSON on stdin (PreToolUse, PostToolUse, SessionStart, UserPromptSubmit, SessionEnd, and
Stop, SubagentStart/Stop, PreCompact, Notification, PermissionRequest/Denied for the user's hooks), maps
the native tool to the governed call it amounts to (Write/create_file → write_file, Edit/replace_string_in_file →
edit_file, Bash/run_in_terminal → run_command, Read/read_file → read_file) and answers in the agent's dialect.
With VS Code running on the workspace (found through ~/.intent-governor/servers/), the extension decides, shows
its approval dialog and writes the trace; otherwise the call is judged here (a needed human approval is handed
back to the agent as "ask") and PostToolUse appends the trace record. Relative paths are resolved as the agent
resolves them (Claude Code: against the payload's cwd, where Bash runs too); SessionEnd frees what a running
extension kept for the session.

  --workspace DIR   the governed workspace (default: the nearest folder at or above the payload's cwd
                    holding .orchestration/; where there is none, tool calls that change anything are refused)
  --intent ID       headless only: the intent this agent works under (else the agent's writes are refused)
  --timeout-ms N    answer "blocked" after N ms (default ${DEFAULT_TIMEOUT_MS}); keep it below the agent's hook timeout
  --headless        never ask a running extension

Unknown tools, unreadable input, a crash or a timeout block the call (exit 2), never allow it.
`;

export { governorHome };

function print(io: CliIO, reply: HookReply): number {
  if (reply.stdout) io.stdout(reply.stdout);
  if (reply.stderr) io.stderr(reply.stderr);
  return reply.exitCode;
}

export interface HookOptions {
  workspace?: string;
  intent?: string;
  headless: boolean;
  timeoutMs: number;
  /** Aborted when --timeout-ms has passed: a request still waiting on the extension is dropped, so it stops waiting too. */
  deadline: AbortSignal;
}

export const HOOK_USAGE = USAGE;

/**
 * Keeps --timeout-ms from another thread (hookWatchdog.ts): given by the process entries, never by code that runs
 * inside another process (it writes to fds 1 and 2 and ends the process). `deadline` is a Date.now() time.
 */
export type ArmWatchdog = (deadline: number, reply: HookReply) => HookWatchdog;

/** Runs `governor hook <agent> …` and returns the exit code; `headless` decides when no extension runs. */
export async function runHookFlow(args: string[], io: CliIO, headless: HeadlessDecider, armWatchdog?: ArmWatchdog): Promise<number> {
  {
    const parsed = parseCliArgs(args, { workspace: { type: 'string' }, intent: { type: 'string' }, 'timeout-ms': { type: 'string' }, headless: { type: 'boolean' } }, true);
    const dialect = parsed.ok ? DIALECTS[parsed.positionals[0] ?? ''] : undefined;
    // A broken hook command must still block: exit 2 is "blocked" for every agent we serve.
    if (!parsed.ok) return print(io, refuseHookCall(claudeDialect, `governor hook: ${parsed.message}.`));
    if (!dialect || parsed.positionals.length !== 1) {
      usageError(io, 'hook', `expected one agent (${Object.keys(DIALECTS).join(', ')})`);
      return 2;
    }
    const timeoutMs = Number(parsed.values['timeout-ms'] ?? DEFAULT_TIMEOUT_MS);
    if (!Number.isInteger(timeoutMs) || timeoutMs < 100) return print(io, refuseHookCall(dialect, 'governor hook: --timeout-ms must be an integer of at least 100.'));
    const deadline = new AbortController();
    const options: HookOptions = {
      workspace: parsed.values.workspace as string | undefined,
      intent: parsed.values.intent as string | undefined,
      headless: parsed.values.headless === true,
      timeoutMs,
      deadline: deadline.signal,
    };
    const lateReply = refuseHookCall(dialect, `Intent Governor did not decide within ${timeoutMs} ms, so the call is refused (fail closed).`);
    const deadlineAt = Date.now() + timeoutMs;
    // Armed when this process starts judging the call itself (the plan's globs, the command rules): from there the
    // deadline holds even when this thread's event loop does not. Reading, mapping and relaying to a running
    // extension leave the loop free, and a worker's boot on every relayed call would cost more than all of them.
    let watchdog: HookWatchdog | undefined;
    const judged: HeadlessDecider = (...call) => {
      watchdog ??= armWatchdog?.(deadlineAt, lateReply);
      return headless(...call);
    };
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<HookReply>((done) => {
      timer = setTimeout(() => {
        deadline.abort();
        done(lateReply);
      }, timeoutMs);
      timer.unref();
    });
    const work = answerHook(dialect, options, io, judged).catch((error: unknown) =>
      refuseHookCall(dialect, `Intent Governor failed while checking this call (${error instanceof Error ? error.message : String(error)}), so it is refused (fail closed).`),
    );
    const reply = await Promise.race([work, timedOut]);
    clearTimeout(timer);
    // The watchdog answered first and is ending the process: a second answer would garble the agent's.
    if (watchdog && !watchdog.claim()) return new Promise<number>(() => undefined);
    return print(io, reply);
  }
}

async function answerHook(dialect: HookDialect, options: HookOptions, io: CliIO, headless: HeadlessDecider): Promise<HookReply> {
  let payload: unknown;
  try {
    // Cursor's agent on Windows starts its stdin with a byte order mark, which JSON.parse refuses.
    payload = JSON.parse((await io.readStdin()).replace(/^\uFEFF/u, ''));
  } catch (error) {
    return refuseHookCall(dialect, `the hook input is not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  return answerHookPayload(dialect, payload, options, io, headless);
}

/** One hook event, already read: the shared hook door maps it, the extension or `headless` decides, the door answers. */
export async function answerHookPayload(dialect: HookDialect, payload: unknown, options: HookOptions, io: Pick<CliIO, 'cwd' | 'env'>, headless: HeadlessDecider): Promise<HookReply> {
  const step = openHookCall(dialect, payload, { cwd: io.cwd, env: io.env, workspace: options.workspace });
  if (step.kind === 'reply') return step.reply;
  return closeHookCall(dialect, step, await decide(step.request, step.root, options, io, step.event, headless));
}

async function decide(request: BridgeRequest, root: string, options: HookOptions, io: Pick<CliIO, 'cwd' | 'env'>, event: HookEvent, headless: HeadlessDecider): Promise<BridgeAnswer> {
  request = withCaller(request);
  // No servers folder: no extension has served a workspace for this user (a stat, not a failing listing, on every call).
  const servers = homeStore('servers', io.env);
  const server = options.headless || !existsSync(servers) ? undefined : await findGoverningServer(root, servers);
  if (server) {
    // The extension may be showing its approval dialog: give it all the time we have left but a margin.
    const answer = await askExtension(server, request, Math.max(100, options.timeoutMs - 500), options.deadline);
    if (answer.ok) return answer.answer;
    const reason = `Intent Governor in VS Code governs this workspace but ${answer.message}; the call is refused (fail closed).`;
    return event.kind === 'tool' && event.phase === 'pre' ? { decision: 'deny', reason } : { decision: 'allow', context: reason };
  }
  return headless(request, root, options.intent ?? (io.env.INTENT_GOVERNOR_INTENT || undefined), io);
}

/** This process, for a governor that outlives the call to find the agent above it (no start time known: not sent). */
function withCaller(request: BridgeRequest): BridgeRequest {
  const { pid, start } = currentProcess();
  return start > 0 ? { ...request, caller: { pid, start } } : request;
}
