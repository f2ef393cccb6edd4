import type { PostHook, PreHook } from '../pipeline/hookTypes';
import { approvalGate } from './approvalGate';
import { commandPolicyHook } from './commandPolicyHook';
import { intentGate } from './intentGate';
import { intentMapRefresher } from './intentMapRefresher';
import { pathScopeGuard } from './pathScopeGuard';
import { readLedger } from './readLedger';
import { signingGuard } from './signingGuard';
import { staleGuard } from './staleGuard';
import { traceRecorder } from './traceRecorder';

/**
 * The built-in guards in the order the pipeline runs them (the governor registers these lists), and one line each
 * for `governor hooks list`, so what it shows is what runs.
 */
export const PRE_GUARDS: readonly PreHook[] = [intentGate, pathScopeGuard, staleGuard, commandPolicyHook, signingGuard, approvalGate];
export const POST_GUARDS: readonly PostHook[] = [readLedger, traceRecorder, intentMapRefresher];

const SUMMARIES: Readonly<Record<string, string>> = {
  [intentGate.name]: 'no change without a bound, valid, IN_PROGRESS intent',
  [pathScopeGuard.name]: "canonical, not the governor's; writes in owned_scope, not protected",
  [staleGuard.name]: 'a change must be based on the file as it is now (stale: refused)',
  [commandPolicyHook.name]: 'commands: denied refused, destructive ones ask, their writes checked',
  [signingGuard.name]: "no change whose record cannot be signed (requireSigning, a revoked key)",
  [approvalGate.name]: 'deletes, scope expansions (and every-change writes) ask a person',
  [readLedger.name]: 'remembers what each session read: the stale check\'s basis',
  [traceRecorder.name]: 'every change to the trace, every refusal to the governance log',
  [intentMapRefresher.name]: 'keeps .orchestration/intent_map.md up to date',
};

export interface GuardRow {
  name: string;
  /** Before the call (may refuse or ask) or after it (records). */
  phase: 'pre' | 'post';
  layer: 'built-in';
  summary: string;
}

export function builtInGuardRows(): GuardRow[] {
  const row = (phase: 'pre' | 'post') => (hook: PreHook | PostHook): GuardRow => ({ name: hook.name, phase, layer: 'built-in', summary: SUMMARIES[hook.name] ?? '' });
  return [...PRE_GUARDS.map(row('pre')), ...POST_GUARDS.map(row('post'))];
}
