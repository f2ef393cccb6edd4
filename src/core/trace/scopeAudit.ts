import type { Intent } from '../intents/intent';
import { matchScope } from '../policy/scope';
import { readTrace } from './traceReader';

/** A recorded change to a path its intent's owned_scope does not cover. */
export interface ScopeViolation {
  traceLine: number;
  recordId: string;
  intentId: string;
  path: string;
  ownedScope: string[];
}

/** A record whose intent is no longer in the intents file, so its scope cannot be checked. */
export interface UnknownIntentRecord {
  traceLine: number;
  recordId: string;
  intentId: string;
}

export interface ScopeAudit {
  /** Mutation records whose intent was found and whose paths were checked. */
  checked: number;
  violations: ScopeViolation[];
  unknownIntents: UnknownIntentRecord[];
}

/**
 * Checks every mutation record's paths against its intent's owned_scope. The scope used is the one in the
 * given (current) intents, not the scope at the time of the change: a scope narrowed since then reports old
 * changes, and a scope widened since then hides a past violation. The trace does not store scopes.
 */
export async function auditTraceScopes(tracePath: string, intents: readonly Intent[], caseInsensitive: boolean): Promise<ScopeAudit> {
  const byId = new Map(intents.map((intent) => [intent.id, intent]));
  const audit: ScopeAudit = { checked: 0, violations: [], unknownIntents: [] };
  for await (const { line, record } of readTrace(tracePath)) {
    const meta = record?.metadata;
    if (!record || meta?.kind !== 'mutation' || typeof meta.intent_id !== 'string') continue;
    const intent = byId.get(meta.intent_id);
    if (!intent) {
      audit.unknownIntents.push({ traceLine: line, recordId: record.id, intentId: meta.intent_id });
      continue;
    }
    audit.checked += 1;
    for (const file of record.files ?? []) {
      if (matchScope(file.path, intent.owned_scope, { caseInsensitive }) === undefined) {
        audit.violations.push({ traceLine: line, recordId: record.id, intentId: intent.id, path: file.path, ownedScope: [...intent.owned_scope] });
      }
    }
  }
  return audit;
}
