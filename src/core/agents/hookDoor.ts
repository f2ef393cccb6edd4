import type * as Crypto from 'node:crypto';
import { resolve } from 'node:path';
import type { BridgeAnswer, BridgeRequest, NativeEventFacts } from './common/nativeCall';
import { userHookFilesPresent } from '../userHooks/hookFilesPresent';
import { findGovernedWorkspaceSync } from '../paths/governedWorkspace';
import { governorHome } from '../paths/governorHome';
import type { HookDialect, HookEvent, HookReply } from './common/hookDialect';
import { copilotStandIn } from './copilot/copilotStandIn';
import { isUnposted } from './common/unpostedTools';

/**
 * The shared layer every agent's hook passes through, between the agent's payload and the governor: it parses,
 * maps and renders through the agent's dialect, and it alone decides what happens when that cannot be done. A
 * payload the dialect cannot read (an unknown or misspelled event, a missing field), a tool it cannot map, a
 * dialect that throws, or an answer that is not allow/deny/ask is refused in the agent's blocking terms: no
 * dialect can answer with silence by forgetting a branch, because there is no such branch to forget.
 */
export type HookStep =
  /** Answered here, without the governor (a refusal, a read in no governed folder, a stand-in). */
  | { kind: 'reply'; reply: HookReply }
  /** For the governor (a running extension or the headless one) to decide, then `closeHookCall`. */
  | { kind: 'decide'; request: BridgeRequest; root: string; event: HookEvent };

export interface HookPlace {
  /** The hook process's directory and environment. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--workspace DIR`: the governed root, instead of the nearest folder above the agent's cwd holding .orchestration/. */
  workspace?: string;
  /** Read-only tools go to the governor too: a resident watches the workspace from each call's pre to its post. */
  everyTool?: boolean;
}

const SILENT: HookReply = { exitCode: 0, stdout: '', stderr: '' };

/** The agent's blocking answer, whatever went wrong; a dialect whose failure rendering itself throws still blocks. */
export function refuseHookCall(dialect: HookDialect, reason: string): HookReply {
  try {
    return dialect.renderFailure(reason);
  } catch {
    return { exitCode: 2, stdout: '', stderr: `Intent Governor blocked this call: ${reason}\n` };
  }
}

/** One hook payload, read through `dialect`: answered here, or a request for the governor. */
export function openHookCall(dialect: HookDialect, payload: unknown, place: HookPlace): HookStep {
  try {
    return open(dialect, payload, place);
  } catch (error) {
    return { kind: 'reply', reply: refuseHookCall(dialect, `Intent Governor could not read this ${dialect.agentName} hook call (${messageOf(error)}), so it is refused (fail closed).`) };
  }
}

function open(dialect: HookDialect, payload: unknown, place: HookPlace): HookStep {
  // GitHub Copilot CLI runs VS Code's and Claude Code's hook files, VS Code's agent Copilot CLI's: each agent's own entry judges its calls.
  const standIn = copilotStandIn(dialect, payload, place.env, place.cwd);
  if (standIn === 'aside') return { kind: 'reply', reply: SILENT };
  const parsed = dialect.parse(payload);
  if (!parsed.ok) return { kind: 'reply', reply: refuseHookCall(dialect, standIn?.reason ?? `${parsed.message}.`) };
  const event = parsed.event;
  const cwd = resolve(place.cwd, event.cwd ?? '.');
  // Agents may run in a subfolder: the governed root is the nearest folder above holding .orchestration/.
  const found = place.workspace !== undefined ? resolve(place.cwd, place.workspace) : findGovernedWorkspaceSync(cwd);
  const root = found ?? cwd;
  const native: NativeEventFacts = { dialect: dialect.id, event: hookEventOf(event), session_id: event.sessionId, cwd, fields: event.fields ?? {} };
  const request: BridgeRequest = { phase: event.kind === 'end' ? 'end' : 'context', session_id: `${dialect.id}:${event.sessionId}`, agent: { name: dialect.agentName }, key: '', calls: [], native };
  const reply = (answer: BridgeAnswer): HookStep => ({ kind: 'reply', reply: render(dialect, event, answer) });
  if (event.kind === 'tool') {
    native.tool_name = event.toolName;
    native.tool_input = event.toolInput;
    // Paths and commands are resolved where the agent stands: its cwd (from the payload) and the workspace folder.
    const mapping = standIn ?? dialect.mapTool(event.toolName, event.toolInput, { cwd, workspace: root });
    // Nothing governs here: refuse what would change something, and leave no log behind in a folder nobody governs.
    if (found === undefined) {
      const readsOnly = mapping.kind === 'passthrough' || (mapping.kind === 'governed' && mapping.calls.every((call) => call.tool === 'read_file'));
      return reply(readsOnly || event.phase === 'post' ? { decision: 'allow' } : ungoverned(cwd));
    }
    // A read-only tool needs no governed check; only the user's hooks may have something to say about it.
    if (mapping.kind === 'passthrough' && !place.everyTool && !userHookFilesPresent(root, governorHome(place.env), dialect.agentName, place.env)) return reply({ decision: 'allow' });
    if (mapping.kind === 'passthrough') native.passthrough = true;
    if (mapping.kind === 'refused' && event.phase === 'post') return reply({ decision: 'allow' });
    request.phase = event.phase;
    // A tool we cannot map is refused by the governor, not here, so the refusal lands in the governance log.
    if (mapping.kind === 'refused') request.unmapped = { tool: event.toolName, reason: mapping.reason, ...(mapping.foreign ? { foreign: mapping.foreign } : {}) };
    else if (mapping.kind === 'governed') request.calls = mapping.calls;
    request.key = `${request.session_id}:${event.toolUseId ?? inputHash(event.toolName, event.toolInput)}`;
    if (event.phase === 'pre' && isUnposted(place.env, event.toolName)) request.unposted = true;
  }
  if (found === undefined) return reply({ decision: 'allow' });
  return { kind: 'decide', request, root, event };
}

/** The governor's answer in the agent's words; an unmapped tool is never allowed, and a malformed answer blocks. */
export function closeHookCall(dialect: HookDialect, step: Extract<HookStep, { kind: 'decide' }>, answer: BridgeAnswer): HookReply {
  if (!isAnswer(answer)) return refuseHookCall(dialect, 'the governor gave no answer it could read, so the call is refused (fail closed).');
  // An older extension may not know `unmapped` and judge an empty call list.
  // Another MCP server's tool a plan names is the governor's to allow (policy/foreignMcpTools.ts); any other unmapped tool never is.
  if (step.request.unmapped && !step.request.unmapped.foreign && answer.decision !== 'deny') return render(dialect, step.event, { decision: 'deny', reason: step.request.unmapped.reason });
  return render(dialect, step.event, answer);
}

function render(dialect: HookDialect, event: HookEvent, answer: BridgeAnswer): HookReply {
  try {
    return dialect.render(event, answer);
  } catch (error) {
    return refuseHookCall(dialect, `Intent Governor could not answer this ${dialect.agentName} hook call (${messageOf(error)}), so it is refused (fail closed).`);
  }
}

function isAnswer(value: unknown): value is BridgeAnswer {
  const decision = (value as { decision?: unknown } | null)?.decision;
  return decision === 'allow' || decision === 'deny' || decision === 'ask';
}

/** The refusal of a change where no folder at or above the agent's cwd is governed (reads are let through). */
function ungoverned(cwd: string): BridgeAnswer {
  return {
    decision: 'deny',
    reason: `[NO_GOVERNED_WORKSPACE] Intent Governor found no governed workspace at or above ${cwd} (no .orchestration/ folder), so it cannot judge this call and refuses it. Work inside the governed project, or install the hook with --workspace DIR.`,
  };
}

/** The agent's event in Claude Code's terms, the names user hooks are declared for. */
function hookEventOf(event: HookEvent): string {
  if (event.kind === 'tool') return event.phase === 'pre' ? 'PreToolUse' : event.eventName === 'PostToolUseFailure' ? 'PostToolUseFailure' : 'PostToolUse';
  if (event.kind === 'end') return 'SessionEnd';
  return event.hookEvent ?? event.eventName;
}

/** Identifies a native call by its input when the agent sends no id (Gemini, Copilot). */
/** Required on first use: most agents send an id, and a hook process that never hashes skips loading node:crypto. */
let crypto: typeof Crypto | undefined;

function inputHash(toolName: string, toolInput: unknown): string {
  const { createHash } = (crypto ??= require('node:crypto') as typeof Crypto);
  return createHash('sha256').update(`${toolName}\0${JSON.stringify(toolInput)}`).digest('hex');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
