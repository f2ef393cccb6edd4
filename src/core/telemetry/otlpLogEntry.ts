/** A record of either log as an OpenTelemetry log record, before the SDK is loaded (plain data, cheap to queue). */
export interface OtlpLogEntry {
  time: Date;
  eventName: string;
  warning: boolean;
  /** The record as written (already redacted), as JSON. */
  body: string;
  attributes: Record<string, string | number | boolean | string[]>;
}

/** Sends a batch over OTLP; resolves to undefined when the collector took it, else why not. Never rejects. */
export interface OtlpSender {
  send(entries: readonly OtlpLogEntry[]): Promise<string | undefined>;
  shutdown(): Promise<void>;
}

export type ExportedLog = 'agent_trace' | 'governance_log';

/**
 * The attributes a collector or SIEM filters on, from a record exactly as it was written (its strings already
 * passed the redactor): intent, agent, session, tool, decision and code, files with their hashes.
 */
export function logEntryOf(log: ExportedLog, record: Record<string, unknown>): OtlpLogEntry {
  const attributes: OtlpLogEntry['attributes'] = { 'intent_governor.log': log };
  const put = (key: string, value: unknown) => {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') attributes[`intent_governor.${key}`] = value;
  };
  put('record_id', record.id);
  const time = new Date(typeof record.timestamp === 'string' ? record.timestamp : Date.now());
  if (log === 'agent_trace') {
    const meta = (record.metadata ?? {}) as Record<string, unknown>;
    for (const key of ['intent_id', 'session_id', 'invocation_id', 'agent', 'model_id', 'tool_name', 'decision', 'approver', 'operation', 'mutation_class', 'reconciled']) put(key, meta[key]);
    const files = Array.isArray(meta.files) ? (meta.files as Record<string, unknown>[]) : [];
    attributes['intent_governor.files'] = files.map((f) => String(f.path));
    attributes['intent_governor.file_changes'] = files.map((f) => String(f.change ?? ''));
    attributes['intent_governor.file_hashes'] = files.map((f) => String(f.after_hash ?? ''));
    attributes['intent_governor.file_before_hashes'] = files.map((f) => String(f.before_hash ?? ''));
    return { time, eventName: 'intent_governor.change', warning: false, body: JSON.stringify(record), attributes };
  }
  const agent = (record.agent ?? {}) as Record<string, unknown>;
  put('agent', agent.name);
  put('model_id', agent.model_id);
  for (const key of ['intent_id', 'session_id', 'invocation_id', 'tool_name', 'decision', 'code', 'message', 'approver', 'hook_event']) put(key, record[key]);
  put('refers_to', record.record_id);
  if (Array.isArray(record.paths)) attributes['intent_governor.files'] = (record.paths as unknown[]).map(String);
  // A foreign MCP tool a plan let run (decision allow) is a record of what ran, not a warning.
  const warning = record.decision !== 'ask' && record.decision !== 'allow';
  return { time, eventName: 'intent_governor.governance', warning, body: JSON.stringify(record), attributes };
}
