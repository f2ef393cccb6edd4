import { join } from 'node:path';

/** Where a workspace's logs live, relative to its root (also the names anchors are keyed by). */
export const TRACE_FILE = '.orchestration/agent_trace.jsonl';
export const GOVERNANCE_LOG_FILE = '.orchestration/governance_log.jsonl';

export function traceFilePath(workspaceRoot: string): string {
  return join(workspaceRoot, TRACE_FILE);
}

export function governanceLogPath(workspaceRoot: string): string {
  return join(workspaceRoot, GOVERNANCE_LOG_FILE);
}
