import type { GovernorServices } from '../../governorServices';
import { runShellCommand, type RunResult } from '../../process/processRunner';
import { scrubEnv } from '../../process/scrubbedEnv';
import { toolError } from '../../toolError';
import type { CallOutcome, PostHook, PreHook, PreHookResult, ToolCall } from '../hookTypes';
import { readHookAnswer } from './hookAnswer';
import { commandHash, type HookApprovals } from './hookApprovals';
import { loadUserHooks, matchesTool, MAX_USER_HOOK_TIMEOUT_MS, USER_HOOKS_FILE, type UserHookSpec } from './userHooksFile';

/** Hook output beyond this is cut and the hook's process group killed; a cut answer is a failure. */
const MAX_HOOK_OUTPUT_BYTES = 64 * 1024;
/** What of a hook's stderr reaches the model. */
const MAX_REASON_CHARS = 2000;

/** What a user hook gets on stdin: the Claude Code hook input shape, with our tool names. */
function hookInput(event: 'PreToolUse' | 'PostToolUse', call: ToolCall, root: string, outcome?: CallOutcome): string {
  const base = { hook_event_name: event, session_id: call.session_id, cwd: root, tool_name: call.tool, tool_input: call.input, invocation_id: call.invocation_id, agent: call.agent };
  if (!outcome) return JSON.stringify(base);
  const response = outcome.status === 'success' ? { status: 'success', text: outcome.output.text } : { status: outcome.status, error: outcome.error };
  return JSON.stringify({ ...base, tool_response: response });
}

function run(spec: UserHookSpec, stdin: string, root: string, signal?: AbortSignal): Promise<RunResult> {
  // A scrubbed env: the hook must not read the extension host's tokens; its group dies at its timeout or when the call is cancelled.
  return runShellCommand(spec.command, { cwd: root, timeoutMs: spec.timeoutMs, maxOutputBytes: MAX_HOOK_OUTPUT_BYTES, env: scrubEnv(process.env), stdin, signal });
}

/**
 * Each hook command runs only once a human approved it (by the sha256 of its command, so an edited command
 * asks again). The approval is asked through the services' approver, and only an interactive one (the modal in
 * VS Code): a policy such as `governor mcp --approve always` must not turn a command that came with the
 * repository into trusted code. Unapproved, the hook does not run and the call itself needs a human (ask),
 * because the check the user wanted has not happened.
 */
async function approvedToRun(spec: UserHookSpec, call: ToolCall, services: GovernorServices, approvals: HookApprovals): Promise<boolean> {
  const root = services.workspace.root;
  const hash = commandHash(spec.command);
  if (await approvals.isApproved(root, hash)) return true;
  if (services.approver.interactive !== true) return false;
  const decision = await services.approver
    .approve({
      kind: 'destructive',
      title: `Run the workspace hook '${spec.name}' from ${USER_HOOKS_FILE}?`,
      tool: call.tool,
      files: [USER_HOOKS_FILE],
      risk: 'high',
      mutation_class: 'command',
      reasons: [`${USER_HOOKS_FILE} declares a ${spec.event}-hook that runs a shell command on agent tool calls; it was never approved or its command changed (${hash.slice(0, 19)}…). Approving lets it run from now on.`],
      command: spec.command,
    })
    .catch(() => ({ approved: false }));
  if (!decision.approved) return false;
  await approvals.approve(root, hash, spec.command);
  return true;
}

/** Reads a hook's answer: exit 2 blocks with stderr, other non-zero exits block, exit 0 may carry JSON. */
export function interpretHookResult(spec: UserHookSpec, result: RunResult): PreHookResult {
  const blocked = (message: string, code: 'HOOK_BLOCKED' | 'HOOK_ERROR' = 'HOOK_BLOCKED'): PreHookResult => ({
    decision: { kind: 'deny', error: toolError(code, message, { hook: spec.name }) },
  });
  if (result.timedOut) return blocked(`The hook '${spec.name}' did not finish within ${spec.timeoutMs} ms and was stopped, so the call is refused. Tell the user.`, 'HOOK_ERROR');
  if (result.truncated) return blocked(`The hook '${spec.name}' wrote more than ${MAX_HOOK_OUTPUT_BYTES} bytes and was stopped, so the call is refused. Tell the user.`, 'HOOK_ERROR');
  const stderr = result.stderr.trim().slice(0, MAX_REASON_CHARS);
  if (result.exitCode === 2) return blocked(`Blocked by the hook '${spec.name}': ${stderr || '(no reason given)'}`);
  if (result.exitCode !== 0) return blocked(`The hook '${spec.name}' failed (exit ${result.exitCode ?? result.signal ?? 'unknown'}${stderr ? `: ${stderr}` : ''}), so the call is refused (fail closed).`, 'HOOK_ERROR');
  const stdout = result.stdout.trim();
  if (!stdout.startsWith('{')) return { decision: { kind: 'allow' } };
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    return blocked(`The hook '${spec.name}' printed JSON that cannot be read, so the call is refused. Tell the user.`, 'HOOK_ERROR');
  }
  const read = readHookAnswer(answer);
  if (typeof read === 'string') return blocked(`The hook '${spec.name}' ${read}, so the call is refused. Tell the user.`, 'HOOK_ERROR');
  const reason = read.reason?.slice(0, MAX_REASON_CHARS) ?? '(no reason given)';
  const context = read.context;
  if (read.decision === 'deny') return { ...blocked(`Blocked by the hook '${spec.name}': ${reason}`), context };
  if (read.decision === 'ask') return { decision: { kind: 'ask', ask: { reason: `The hook '${spec.name}' asks: ${reason}`, risk: 'medium' } }, context };
  if (read.updatedInput) return { decision: { kind: 'modify', input: read.updatedInput }, context };
  return { decision: { kind: 'allow' }, context };
}

/**
 * The user's command hooks from `.orchestration/hooks.yaml`, as one pre-hook (placed before the built-in
 * guards, so the guards judge any input a hook modifies) and one post-hook. The file is read on every call,
 * so an edit takes effect at once. Nothing runs in an untrusted workspace: the file comes with the repository,
 * and Restricted Mode's policy (every change asks, commands refused) already holds there.
 */
export function userCommandHooks(approvals: HookApprovals): { pre: PreHook; post: PostHook } {
  const pre: PreHook = {
    name: 'user-hooks',
    // Each command has its own timeout (at most a minute) that kills its group; this only bounds the sum.
    timeoutMs: 5 * MAX_USER_HOOK_TIMEOUT_MS,
    async run({ call, facts, signal }) {
      const services = facts.services;
      if (!services.policy.trusted) return { decision: { kind: 'allow' } };
      const root = services.workspace.root;
      const loaded = await loadUserHooks(root);
      if (!loaded.ok) return { decision: { kind: 'deny', error: toolError('HOOK_ERROR', `${loaded.message}, so every call is refused until a human fixes it (fail closed).`) } };
      let input = call.input;
      const context: string[] = [];
      let ask: string | undefined;
      for (const spec of loaded.hooks.filter((h) => h.event === 'pre' && matchesTool(h.matcher, call.tool))) {
        if (!(await approvedToRun(spec, call, services, approvals))) {
          ask ??= `The workspace hook '${spec.name}' is not approved (only a person in VS Code's approval dialog can approve it), so it did not check this call; a human must.`;
          continue;
        }
        const result = interpretHookResult(spec, await run(spec, hookInput('PreToolUse', { ...call, input }, root), root, signal));
        if (result.context) context.push(result.context);
        if (result.decision.kind === 'deny') return { decision: result.decision, context: context.join('\n') || undefined };
        if (result.decision.kind === 'ask') ask ??= result.decision.ask.reason;
        if (result.decision.kind === 'modify') input = result.decision.input;
      }
      const ctx = context.join('\n') || undefined;
      if (ask) return { decision: { kind: 'ask', ask: { reason: ask, risk: 'medium' } }, context: ctx };
      return { decision: input === call.input ? { kind: 'allow' } : { kind: 'modify', input }, context: ctx };
    },
  };
  const post: PostHook = {
    name: 'user-hooks',
    timeoutMs: 5 * MAX_USER_HOOK_TIMEOUT_MS,
    async run({ call, facts, outcome }) {
      const services = facts.services;
      if (!services.policy.trusted) return;
      const root = services.workspace.root;
      const loaded = await loadUserHooks(root);
      if (!loaded.ok) return services.logger.warn(loaded.message);
      for (const spec of loaded.hooks.filter((h) => h.event === 'post' && matchesTool(h.matcher, call.tool))) {
        if (!(await approvals.isApproved(root, commandHash(spec.command)))) {
          // Post-hooks cannot change the outcome, so an unapproved one is skipped, never asked about.
          services.logger.warn(`post-hook '${spec.name}' is not approved; skipped`);
          continue;
        }
        const result = await run(spec, hookInput('PostToolUse', call, root, outcome), root);
        if (result.exitCode !== 0) services.logger.warn(`post-hook '${spec.name}' exited ${result.exitCode ?? result.signal}${result.timedOut ? ' (timed out)' : ''}: ${result.stderr.trim().slice(0, 500)}`);
      }
    },
  };
  return { pre, post };
}
