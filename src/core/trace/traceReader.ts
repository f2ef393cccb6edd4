import { Minimatch } from 'minimatch';
import { readLogLines } from './logLines';
import type { AgentTraceRecord } from './traceRecord';

/** One parsed line of the trace; `error` instead of `record` when the line is not a JSON object. */
export interface TraceLine {
  line: number;
  record?: AgentTraceRecord;
  error?: string;
}

export interface TraceEntry {
  line: number;
  record: AgentTraceRecord;
}

/** What `governor trace` and the inspector filter by; every given field must match. */
export interface TraceFilter {
  intent?: string;
  /** Exact workspace-relative path or a glob (`src/**\/*.ts`). */
  file?: string;
  agent?: string;
  model?: string;
  since?: Date;
  until?: Date;
  decision?: string;
  /** AST_REFACTOR or INTENT_EVOLUTION: records written before change classes match neither. */
  mutationClass?: string;
}

/** Streams the trace record by record; memory stays flat however long the file is. A torn last line is skipped. */
export async function* readTrace(path: string): AsyncGenerator<TraceLine> {
  for await (const { text, line, complete } of readLogLines(path)) {
    if (!complete) return;
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) yield { line, record: value as AgentTraceRecord };
      else yield { line, error: 'not a JSON object' };
    } catch {
      yield { line, error: 'not valid JSON' };
    }
  }
}

/** The records that match every field of the filter, in file order. */
export async function* queryTrace(path: string, filter: TraceFilter = {}): AsyncGenerator<TraceEntry> {
  const matches = compileFilter(filter);
  for await (const { line, record } of readTrace(path)) {
    if (record && matches(record)) yield { line, record };
  }
}

export function compileFilter(filter: TraceFilter): (record: AgentTraceRecord) => boolean {
  const glob = filter.file === undefined ? undefined : new Minimatch(filter.file, { dot: true });
  const since = filter.since?.getTime();
  const until = filter.until?.getTime();
  return (record) => {
    const meta = record.metadata ?? {};
    if (filter.intent !== undefined && meta.intent_id !== filter.intent) return false;
    if (filter.agent !== undefined && meta.agent !== filter.agent) return false;
    if (filter.decision !== undefined && meta.decision !== filter.decision) return false;
    if (filter.mutationClass !== undefined && meta.mutation_class !== filter.mutationClass) return false;
    if (filter.model !== undefined && !modelsOf(record).includes(filter.model)) return false;
    if (glob && !(record.files ?? []).some((f) => f.path === filter.file || glob.match(f.path))) return false;
    if (since !== undefined || until !== undefined) {
      const at = Date.parse(record.timestamp);
      if (Number.isNaN(at)) return false;
      if (since !== undefined && at < since) return false;
      if (until !== undefined && at > until) return false;
    }
    return true;
  };
}

/** Every model id a record names (per conversation, and in metadata). */
export function modelsOf(record: AgentTraceRecord): string[] {
  const models = new Set<string>();
  if (typeof record.metadata?.model_id === 'string') models.add(record.metadata.model_id);
  for (const file of record.files ?? []) {
    for (const conversation of file.conversations ?? []) {
      if (conversation.contributor?.model_id) models.add(conversation.contributor.model_id);
    }
  }
  return [...models];
}
