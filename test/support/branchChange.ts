import type { AgentTraceRecord } from '../../src/core/trace/traceRecord';

/** A mutation record at `line` of the branch's trace, changing `ranges` of `path`, as the branch report reads it. */
export function branchChange(line: number, path: string, ranges: [number, number][], meta: Partial<AgentTraceRecord['metadata']> = {}): { line: number; record: AgentTraceRecord } {
  return {
    line,
    record: {
      version: '1.0',
      id: `r${line}`,
      timestamp: `2026-01-01T00:00:0${line}.000Z`,
      tool: { name: 'intent-governor', version: '0' },
      files: [{ path, conversations: [{ contributor: { type: 'ai', model_id: 'm-1' }, ranges: ranges.map(([s, e]) => ({ start_line: s, end_line: e, content_hash: 'sha256:x' })) }] }],
      metadata: { kind: 'mutation', intent_id: 'app', agent: 'claude', tool_name: 'write_file', decision: 'allow', operation: 'write', ...meta },
    },
  };
}
