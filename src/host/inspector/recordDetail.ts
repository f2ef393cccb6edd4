import type { AgentTraceRecord, GovernanceRecord } from '../../core/trace/traceRecord';
import type { FileDetail, InspectorRow, RecordDetail } from '../../shared/inspectorProtocol';

/** What the detail pane shows for one record: files with ranges and hashes, approver, chain links, the raw JSON. */
export function recordDetail(row: InspectorRow, record: Record<string, unknown>): RecordDetail {
  const raw = JSON.stringify(record, null, 2);
  if (row.source === 'governance') {
    const g = record as GovernanceRecord;
    return {
      row,
      raw,
      files: row.files.map((path) => ({ path, ranges: [], changedLines: 0 })),
      approver: g.approver,
      session: g.session_id,
      invocation: g.invocation_id,
      tool: g.tool_name,
      message: g.message,
      hash: g.hash,
      prevHash: g.prev_hash,
    };
  }
  const t = record as unknown as AgentTraceRecord;
  const meta = t.metadata ?? {};
  const files: FileDetail[] = (t.files ?? []).map((file) => {
    const ranges = (file.conversations ?? []).flatMap((c) => c.ranges ?? []).map((r) => ({ startLine: r.start_line, endLine: r.end_line, contentHash: r.content_hash }));
    const change = meta.files?.find((f) => f.path === file.path);
    return {
      path: file.path,
      change: change?.change,
      beforeHash: change?.before_hash,
      afterHash: change?.after_hash,
      ranges,
      changedLines: ranges.reduce((sum, r) => sum + (r.endLine - r.startLine + 1), 0),
    };
  });
  return {
    row,
    raw,
    files,
    approver: meta.approver,
    session: meta.session_id,
    invocation: meta.invocation_id,
    tool: meta.tool_name,
    // Records older than change classes held the operation (write, edit…) in mutation_class.
    ...(meta.operation === undefined ? { operation: meta.mutation_class } : { operation: meta.operation, mutationClass: meta.mutation_class, mutationClassRule: meta.mutation_class_rule, mutationClassReason: meta.mutation_class_reason }),
    hash: meta.hash,
    prevHash: meta.prev_hash,
  };
}
