import type { HookVerdict } from './hookVerdict';

const SEVERITY: Record<HookVerdict['decision'], number> = { none: 0, allow: 1, ask: 2, deny: 3 };

/**
 * Several hooks' verdicts on one event, in the order the hooks ran, as one: deny > ask > allow > none, with the
 * reason and author of the first verdict that reached the winning decision; the last changed input wins (each
 * hook saw the input as the hooks before it left it); contexts, messages and failures are all kept, in order;
 * the first `stop` stops.
 */
export function mergeVerdicts(list: readonly { hook: string; verdict: HookVerdict }[]): HookVerdict {
  let decision: HookVerdict['decision'] = 'none';
  let decider: { hook: string; verdict: HookVerdict } | undefined;
  let updatedInput: Record<string, unknown> | undefined;
  let stop: string | undefined;
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
    ...(stop !== undefined ? { stop } : {}),
    failures,
  };
}
