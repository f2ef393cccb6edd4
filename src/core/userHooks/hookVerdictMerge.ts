import type { HookVerdict, PassThrough } from './hookVerdict';

const SEVERITY: Record<HookVerdict['decision'], number> = { none: 0, allow: 1, ask: 2, deny: 3 };

/**
 * Several hooks' verdicts on one event, in the order the hooks ran, as one: deny > ask > allow > none, with the
 * reason and author of the first verdict that reached the winning decision; the last changed input (and changed
 * tool output) wins (each hook saw the input as the hooks before it left it); contexts, messages and failures are all kept, in order;
 * the first `stop` stops.
 */
export function mergeVerdicts(list: readonly { hook: string; verdict: HookVerdict }[]): HookVerdict {
  let decision: HookVerdict['decision'] = 'none';
  let decider: { hook: string; verdict: HookVerdict } | undefined;
  let updatedInput: Record<string, unknown> | undefined;
  let stop: string | undefined;
  let updatedToolOutput: unknown;
  let passThrough: PassThrough | undefined;
  const contexts: string[] = [];
  const systemMessages: string[] = [];
  const failures: HookVerdict['failures'] = [];
  for (const entry of list) {
    const { verdict } = entry;
    if (SEVERITY[verdict.decision] > SEVERITY[decision]) {
      decision = verdict.decision;
      decider = entry;
    }
    if (verdict.updatedInput !== undefined) updatedInput = verdict.updatedInput;
    if (verdict.updatedToolOutput !== undefined) updatedToolOutput = verdict.updatedToolOutput;
    if (verdict.passThrough) passThrough = mergePassThrough(passThrough, verdict.passThrough);
    if (verdict.context) contexts.push(verdict.context);
    if (verdict.systemMessage) systemMessages.push(verdict.systemMessage);
    failures.push(...verdict.failures);
    stop ??= verdict.stop;
  }
  const decides = decider !== undefined && (decision === 'deny' || decision === 'ask');
  return {
    decision,
    ...(decides && decider?.verdict.reason !== undefined ? { reason: decider.verdict.reason } : {}),
    ...(decides && decider ? { decidedBy: decider.verdict.decidedBy ?? decider.hook } : {}),
    ...(contexts.length ? { context: contexts.join('\n') } : {}),
    ...(systemMessages.length ? { systemMessage: systemMessages.join('\n') } : {}),
    ...(updatedInput !== undefined ? { updatedInput } : {}),
    ...(updatedToolOutput !== undefined ? { updatedToolOutput } : {}),
    ...(passThrough ? { passThrough } : {}),
    ...(stop !== undefined ? { stop } : {}),
    failures,
  };
}

/** Seed 000's rules: permission updates accumulate, watched paths join, any retry retries, the last message wins. */
function mergePassThrough(a: PassThrough | undefined, b: PassThrough): PassThrough {
  if (!a) return b;
  const out: PassThrough = { ...a, ...b };
  if (a.updatedPermissions && b.updatedPermissions) out.updatedPermissions = [...a.updatedPermissions, ...b.updatedPermissions];
  if (a.watchPaths && b.watchPaths) out.watchPaths = [...new Set([...a.watchPaths, ...b.watchPaths])];
  if (a.retry || b.retry) out.retry = true;
  return out;
}
