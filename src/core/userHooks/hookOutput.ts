import { DECISION_EVENTS, type HookEventName } from './hookEvents';
import type { HookExecution } from './hookExecution';
import type { HookSpec } from './hookSpec';
import type { HookVerdict, PassThrough } from './hookVerdict';

/** What of a hook's reason (or stderr) reaches the model or the human. */
export const MAX_REASON_CHARS = 2000;
/** additionalContext and systemMessage, as Claude Code caps them. */
export const MAX_CONTEXT_CHARS = 10_000;

/** Plain stdout of exit 0 is context for the model on these events only (Claude Code's rule); elsewhere it is ignored. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set<HookEventName>(['UserPromptSubmit', 'SessionStart']);
/** The tool already ran: a block cannot undo it, so its reason is told to the model instead. */
const AFTER_TOOL_EVENTS: ReadonlySet<HookEventName> = new Set<HookEventName>(['PostToolUse', 'PostToolUseFailure']);

type Decision = HookVerdict['decision'];
const SEVERITY: Record<Decision, number> = { none: 0, allow: 1, ask: 2, deny: 3 };

interface Signal {
  decision: Exclude<Decision, 'none'>;
  reason?: string;
}

/**
 * One hook's run read with Claude Code's protocol. Exit 0: JSON on stdout (or, for a prompt hook, the model's
 * `{"ok": ...}`) is the answer, plain text is context on UserPromptSubmit and SessionStart. Exit 2: a refusal
 * with stderr as the reason on decision events, stderr as context for the model on the others. Anything else
 * (another exit code, a run that failed, an answer that cannot be read) is a failure, which refuses the call
 * when the hook says `onFailure: "block"`: a check that did not happen never reads as allow.
 */
export function readHookExecution(spec: HookSpec, execution: HookExecution): HookVerdict {
  if (execution.kind === 'failed') return failure(spec, execution.message);
  if (execution.kind === 'unavailable') return unavailable(spec);
  const { exitCode, stdout, stderr } = execution;
  if (exitCode === 2) return blockingExit(spec, stderr);
  if (exitCode !== 0) {
    const said = stderr.trim();
    return failure(spec, `exited with code ${exitCode}${said ? `: ${cap(said, 500)}` : ''}`);
  }
  const read = spec.action.type === 'prompt' ? readPromptAnswer(spec.event, stdout) : readStdout(spec.event, stdout);
  if (typeof read === 'string') return failure(spec, read);
  return read.decision === 'deny' || read.decision === 'ask' ? { ...read, decidedBy: spec.name } : read;
}

/**
 * A JSON answer (Claude Code's output, or our short form `decision`/`reason`/`modify`/`additionalContext`), or
 * why it is not one. Every refusal any field can express counts: the most severe signal wins, so no spelling
 * reads as allow, and a value that cannot be read (an unknown decision, a changed input that is not an object)
 * is an error rather than a guess.
 */
export function readHookJson(event: HookEventName, answer: Record<string, unknown>): HookVerdict | string {
  const specific = answer.hookSpecificOutput;
  if (specific !== undefined && !isRecord(specific)) return "returned a 'hookSpecificOutput' that is not an object";
  const signals: Signal[] = [];
  const reason = text(answer.reason);
  const contexts: string[] = [];

  if (answer.continue !== undefined && typeof answer.continue !== 'boolean') return "returned a 'continue' that is not true or false";
  const stop = answer.continue === false ? (text(answer.stopReason) ?? 'the hook stopped the agent (continue: false)') : undefined;
  if (stop !== undefined) signals.push({ decision: 'deny', reason: stop });

  const decision = readDecision(answer.decision, 'decision');
  if (typeof decision === 'string') return decision;
  if (decision) {
    // After the tool a block cannot undo it: every door hands its reason to the model (once; see userHookChain).
    const flagged = decision.decision === 'deny' && AFTER_TOOL_EVENTS.has(event);
    signals.push({ decision: decision.decision, reason: flagged ? (reason ?? 'A hook flagged the result of this tool call.') : reason });
  }

  const permission = specific?.permissionDecision;
  if (permission !== undefined) {
    if (permission !== 'allow' && permission !== 'deny' && permission !== 'ask' && permission !== 'defer') return `returned an unknown permissionDecision '${String(permission)}'`;
    // `defer` leaves the decision for later; the governor cannot pause a call, so a person decides now (fail closed).
    if (permission === 'defer') signals.push({ decision: 'ask', reason: text(specific?.permissionDecisionReason) ?? 'the hook deferred this decision (permissionDecision: defer), so a person decides' });
    else signals.push({ decision: permission, reason: text(specific?.permissionDecisionReason) ?? reason });
  }

  // PermissionRequest's answer: `decision: {behavior, message, updatedInput, interrupt}`.
  const request = specific?.decision;
  let requestInput: unknown;
  let interrupt: string | undefined;
  if (isRecord(request)) {
    const behavior = request.behavior;
    if (behavior !== 'allow' && behavior !== 'deny') return `returned an unknown decision.behavior '${String(behavior)}'`;
    signals.push({ decision: behavior, reason: text(request.message) ?? reason });
    requestInput = request.updatedInput;
    if (behavior === 'deny' && request.interrupt === true) interrupt = text(request.message) ?? 'the hook denied the request and stopped the agent (interrupt: true)';
  } else if (request !== undefined) {
    const named = readDecision(request, 'hookSpecificOutput.decision');
    if (typeof named === 'string') return named;
    if (named) signals.push({ decision: named.decision, reason });
  }

  // Our `modify`, Claude's updatedInput, PermissionRequest's: the most specific one written wins.
  let updatedInput: Record<string, unknown> | undefined;
  // Seed 003's `{"decision": "modify", "modified_tool_input": {...}}` reads as the same change.
  for (const [field, value] of [['modified_tool_input', answer.modified_tool_input], ['modify', answer.modify], ['updatedInput', specific?.updatedInput], ['decision.updatedInput', requestInput]] as const) {
    if (value === undefined) continue;
    if (!isRecord(value)) return `returned a changed input ('${field}') that is not an object`;
    updatedInput = value;
  }

  for (const extra of [answer.additionalContext, specific?.additionalContext]) if (typeof extra === 'string' && extra !== '') contexts.push(extra);

  // Claude Code reads updatedToolOutput first, updatedMCPToolOutput for MCP tools; either replaces what the model reads.
  const output = specific?.updatedToolOutput ?? specific?.updatedMCPToolOutput ?? answer.modified_tool_result;
  const updatedToolOutput = output !== undefined && output !== null && event === 'PostToolUse' ? output : undefined;
  const passThrough = readPassThrough(answer, specific);
  if (typeof passThrough === 'string') return passThrough;
  // suppressOutput hides stdout from Claude Code's transcript; a JSON answer's stdout is never shown here anyway.
  const systemMessage = text(answer.systemMessage);

  const worst = signals.reduce<Signal | undefined>((a, b) => (a === undefined || SEVERITY[b.decision] > SEVERITY[a.decision] ? b : a), undefined);
  const stopped = stop ?? interrupt;
  const context = contexts.join('\n');
  return {
    decision: worst?.decision ?? 'none',
    ...(worst && worst.decision !== 'allow' ? { reason: cap(worst.reason ?? reason ?? 'the hook gave no reason', MAX_REASON_CHARS) } : {}),
    ...(context ? { context: cap(context, MAX_CONTEXT_CHARS) } : {}),
    ...(systemMessage ? { systemMessage: cap(systemMessage, MAX_CONTEXT_CHARS) } : {}),
    ...(updatedInput ? { updatedInput } : {}),
    ...(updatedToolOutput !== undefined ? { updatedToolOutput } : {}),
    ...(passThrough ? { passThrough } : {}),
    ...(stopped !== undefined ? { stop: cap(stopped, MAX_REASON_CHARS) } : {}),
    failures: [],
  };
}

/**
 * Fields only the agent acts on (seed 000's HookOutcome): read where Claude Code puts them (hookSpecificOutput,
 * PermissionRequest's decision, or the top level for retry), checked for their type, kept in Claude's words.
 */
function readPassThrough(answer: Record<string, unknown>, specific: Record<string, unknown> | undefined): PassThrough | undefined | string {
  const request = isRecord(specific?.decision) ? specific.decision : undefined;
  const out: PassThrough = {};
  const permissions = request?.updatedPermissions ?? specific?.updatedPermissions;
  if (permissions !== undefined) {
    if (!Array.isArray(permissions)) return "returned an 'updatedPermissions' that is not a list";
    out.updatedPermissions = permissions;
  }
  const retry = specific?.retry ?? answer.retry;
  if (retry !== undefined) {
    if (typeof retry !== 'boolean') return "returned a 'retry' that is not true or false";
    out.retry = retry;
  }
  const watch = specific?.watchPaths;
  if (watch !== undefined) {
    if (!Array.isArray(watch) || !watch.every((p) => typeof p === 'string')) return "returned a 'watchPaths' that is not a list of paths";
    out.watchPaths = watch as string[];
  }
  const message = specific?.initialUserMessage;
  if (message !== undefined) {
    if (typeof message !== 'string') return "returned an 'initialUserMessage' that is not a string";
    out.initialUserMessage = message;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Exit 0 of a command or an http hook: JSON when it starts with `{`, else plain text. */
function readStdout(event: HookEventName, stdout: string): HookVerdict | string {
  const trimmed = stdout.trim();
  if (trimmed.startsWith('{')) {
    const answer = parseObject(trimmed);
    return typeof answer === 'string' ? answer : readHookJson(event, answer);
  }
  if (trimmed !== '' && PLAIN_STDOUT_IS_CONTEXT.has(event)) return { decision: 'none', context: cap(trimmed, MAX_CONTEXT_CHARS), failures: [] };
  return { decision: 'none', failures: [] };
}

/**
 * A prompt hook's completion: Claude Code's `{"ok": true}` / `{"ok": false, "reason": "..."}`, or the full JSON
 * output, bare or in one ``` fence (models like to fence). Anything else is a failure: a model that did not
 * answer the question has not approved anything. `ok: true` says nothing more than "no objection", as in
 * Claude Code: it never answers a permission request in the human's place.
 */
function readPromptAnswer(event: HookEventName, completion: string): HookVerdict | string {
  const json = unfenced(completion.trim());
  if (json === undefined) return 'answered with text that is not JSON (expected {"ok": true} or {"ok": false, "reason": "..."})';
  const answer = parseObject(json);
  if (typeof answer === 'string') return answer;
  if (!('ok' in answer)) return readHookJson(event, answer);
  const { ok, ...rest } = answer;
  if (typeof ok !== 'boolean') return "answered with an 'ok' that is not true or false";
  if (ok) return readHookJson(event, { ...rest, reason: undefined });
  return readHookJson(event, { ...rest, decision: 'block', reason: text(rest.reason) ?? 'the model gave no reason' });
}

function blockingExit(spec: HookSpec, stderr: string): HookVerdict {
  const said = cap(stderr.trim(), MAX_REASON_CHARS);
  // Like Claude Code, exit 2 ignores stdout: stderr is the whole message.
  if (DECISION_EVENTS.has(spec.event)) return { decision: 'deny', reason: said || 'the hook blocked this (exit 2) without saying why', decidedBy: spec.name, failures: [] };
  return said ? { decision: 'none', context: said, failures: [] } : { decision: 'none', failures: [] };
}

/**
 * A hook this door cannot run (a prompt or agent hook headless: no language model; a user's mcp_tool hook: only
 * Claude Code can call it). Not a failure of the hook, so no HOOK_ERROR: its `onFailure` decides, and the refusal
 * says why in plain words and how to skip it here.
 */
function unavailable(spec: HookSpec): HookVerdict {
  if (spec.onFailure === 'continue') return { decision: 'none', failures: [] };
  const action = spec.action;
  const reason =
    action.type === 'mcp_tool'
      ? `The mcp_tool hook '${spec.name}' calls the MCP tool ${action.server}/${action.tool}, and mcp_tool hooks run only in Claude Code (from its own settings files), so it could not check this here. Its onFailure is "block", so this is refused; set "onFailure": "continue" on it to let calls go on without it outside Claude Code.`
      : `The ${action.type === 'prompt' && action.agent ? 'agent hook (run here as a prompt hook)' : 'prompt hook'} '${spec.name}' needs a language model, and there is none here (only VS Code provides one; agents' hooks and the governor CLI run without). Its onFailure is "block", so this is refused; set "onFailure": "continue" on it to skip it outside VS Code.`;
  return { decision: 'deny', reason, decidedBy: spec.name, failures: [] };
}

function failure(spec: HookSpec, message: string): HookVerdict {
  const failures = [{ hook: spec.name, message: cap(message, MAX_REASON_CHARS) }];
  if (spec.onFailure === 'continue') return { decision: 'none', failures };
  return {
    decision: 'deny',
    reason: cap(`The hook '${spec.name}' ${message}, so this is refused until the hook is fixed (fail closed). Tell the user.`, MAX_REASON_CHARS),
    decidedBy: spec.name,
    failures,
  };
}

function readDecision(value: unknown, field: string): Signal | undefined | string {
  switch (value) {
    case undefined:
      return undefined;
    case 'approve':
    case 'allow':
      return { decision: 'allow' };
    case 'block':
    case 'deny':
      return { decision: 'deny' };
    case 'ask':
      return { decision: 'ask' };
    case 'modify': // seed 003: allowed, with the change it carries
      return undefined;
    default:
      return `returned an unknown ${field} '${typeof value === 'string' ? value : JSON.stringify(value)}'`;
  }
}

function parseObject(json: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return `returned JSON that cannot be read (${error instanceof Error ? error.message : String(error)})`;
  }
  return isRecord(value) ? value : 'returned JSON that is not an object';
}

/** The text itself when it is a JSON object, else the inside of its only ``` fence. */
function unfenced(completion: string): string | undefined {
  if (completion.startsWith('{')) return completion;
  const fences = [...completion.matchAll(/```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)```/g)];
  return fences.length === 1 ? fences[0][1].trim() : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Cut to `max` characters, saying so. */
export function cap(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 12)}… (cut off)`;
}
