import type { Intent } from '../intents/intent';
import { readTrace, type TraceLine } from '../trace/traceReader';
import { matchScope } from './scope';

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

function recordedScope(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((glob) => typeof glob === 'string') ? value : undefined;
}

/**
 * Checks every mutation record's paths against its intent's owned_scope at the time of the change
 * (`metadata.intent_scope`). Records written without it fall back to the scope in the given (current)
 * intents, where a scope narrowed since reports old changes and a scope widened since hides a violation.
 */
export async function auditTraceScopes(tracePath: string, intents: readonly Intent[], caseInsensitive: boolean): Promise<ScopeAudit> {
  return auditScopes(readTrace(tracePath), intents, caseInsensitive);
}

/** auditTraceScopes over the given lines only (`check --base`: the records a branch added). */
export async function auditScopes(lines: AsyncIterable<TraceLine> | Iterable<TraceLine>, intents: readonly Intent[], caseInsensitive: boolean): Promise<ScopeAudit> {
  const byId = new Map(intents.map((intent) => [intent.id, intent]));
  const audit: ScopeAudit = { checked: 0, violations: [], unknownIntents: [] };
  for await (const { line, record } of lines) {
    const meta = record?.metadata;
    if (!record || meta?.kind !== 'mutation' || typeof meta.intent_id !== 'string') continue;
    const scope = recordedScope(meta.intent_scope) ?? byId.get(meta.intent_id)?.owned_scope;
    if (!scope) {
      audit.unknownIntents.push({ traceLine: line, recordId: record.id, intentId: meta.intent_id });
      continue;
    }
    audit.checked += 1;
    for (const file of record.files ?? []) {
      if (matchScope(file.path, scope, { caseInsensitive }) === undefined) {
        audit.violations.push({ traceLine: line, recordId: record.id, intentId: meta.intent_id, path: file.path, ownedScope: [...scope] });
      }
    }
  }
  return audit;
}
