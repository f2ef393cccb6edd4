import { randomUUID } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import { changedRanges, hashContent, lineHashes, type LineRange } from './ranges';
import type { GovernanceEvent, MutationEvent, TraceApproval } from './traceSink';

/** Agent Trace schema version our records declare. */
export const AGENT_TRACE_VERSION = '1.0';
export const TOOL_NAME = 'intent-governor';

/** The schema caps model ids at 250 characters. */
const MAX_MODEL_ID = 250;

export interface Contributor {
  type: 'human' | 'ai' | 'mixed' | 'unknown';
  model_id?: string;
}

export interface Conversation {
  url?: string;
  contributor: Contributor;
  ranges: LineRange[];
  related?: { type: string; url: string }[];
}

export interface TraceFile {
  path: string;
  conversations: Conversation[];
}

/** Per-file facts the schema has no place for: what the file was and became. */
export interface FileChangeMeta {
  path: string;
  change: 'created' | 'modified' | 'deleted';
  before_hash?: string;
  after_hash?: string;
  /** Per range of this file (in order), its lines' short hashes run together (ranges.ts lineHashes); blame's fallback. */
  line_hashes?: string[];
}

/** What a mutation record says allowed it: the policy alone, or a person's approval. */
export const TRACE_DECISIONS = ['allow', 'approved'] as const;
export type TraceDecision = (typeof TRACE_DECISIONS)[number];

/**
 * Everything of ours in an Agent Trace record. `kind` tells mutation records from the writer's own notes:
 * `recovery` (a torn tail was quarantined), `discontinuity` (the anchored head vanished) and `acceptance` (a human
 * accepted discontinuity notes, named by hash in `accepts`, for every clone).
 */
export interface TraceMetadata {
  kind: 'mutation' | 'recovery' | 'discontinuity' | 'acceptance' | 'ungoverned';
  intent_id?: string;
  invocation_id?: string;
  session_id?: string;
  agent?: string;
  model_id?: string;
  tool_name?: string;
  decision?: TraceDecision;
  approver?: string;
  /** Which standing approval allowed the change, or was granted with it (absent for every other change). */
  approval?: TraceApproval;
  /** write | edit | delete | command. Records written before change classes held this in `mutation_class`. */
  operation?: string;
  /** AST_REFACTOR or INTENT_EVOLUTION (src/core/changeClass), with the rule that decided and why. */
  mutation_class?: string;
  mutation_class_rule?: string;
  mutation_class_reason?: string;
  files?: FileChangeMeta[];
  /** An agent's native change recorded from its pending entry, not by its post, and why (nativeReconciler.ts). */
  reconciled?: string;
  /** Set by the writer when it continues after a union merge (see traceVerify.ts). */
  merge?: MergeNote;
  prev_hash?: string;
  hash?: string;
  [key: string]: unknown;
}

export interface MergeNote {
  /** Heads of the other chains this record joins; the record itself continues from the last line. */
  heads: string[];
  chains: number;
  from_line: number;
}

/** One line of `.orchestration/agent_trace.jsonl`: an Agent Trace v1 record. */
export interface AgentTraceRecord {
  version: string;
  id: string;
  timestamp: string;
  vcs?: { type: 'git'; revision: string };
  tool: { name: string; version: string };
  files: TraceFile[];
  metadata: TraceMetadata;
}

/** One line of `.orchestration/governance_log.jsonl`: our own shape, chained the same way (fields at top level). */
export interface GovernanceRecord {
  kind: 'governance' | 'recovery' | 'discontinuity' | 'acceptance';
  version: string;
  id: string;
  timestamp: string;
  tool: { name: string; version: string };
  vcs?: { type: 'git'; revision: string };
  invocation_id?: string;
  session_id?: string;
  agent?: { name: string; model_id?: string };
  intent_id?: string;
  tool_name?: string;
  decision?: GovernanceEvent['decision'];
  code?: string;
  message?: string;
  paths?: string[];
  approver?: string;
  merge?: MergeNote;
  prev_hash?: string;
  hash?: string;
  [key: string]: unknown;
}

export interface RecordContext {
  workspaceRoot: string;
  toolVersion: string;
  /** HEAD's commit, when the workspace is in a git repository with a born branch. */
  revision?: string;
  newId?: () => string;
}

/** `intent://<id>`: a URI (the schema checks the format) that names the intent a change was made under. */
export function intentUrl(intentId: string): string {
  return `intent://${encodeURIComponent(intentId)}`;
}

/** Workspace-relative POSIX path, whatever form the event used. */
export function tracePath(root: string, path: string): string {
  const rel = isAbsolute(path) ? relative(root, path) : path;
  return rel.split(sep).join('/').replace(/^\.\//, '');
}

export function buildMutationRecord(event: MutationEvent, context: RecordContext): AgentTraceRecord {
  const modelId = event.agent.model_id?.slice(0, MAX_MODEL_ID);
  const contributor: Contributor = modelId ? { type: 'ai', model_id: modelId } : { type: 'ai' };
  const related = event.intent_id === undefined ? undefined : [{ type: 'intent', url: intentUrl(event.intent_id) }];
  const files: TraceFile[] = [];
  const fileMeta: FileChangeMeta[] = [];
  for (const change of event.files) {
    const path = tracePath(context.workspaceRoot, change.path);
    const ranges = change.after === undefined ? [] : changedRanges(change.before, change.after);
    files.push({ path, conversations: [related ? { contributor, ranges, related } : { contributor, ranges }] });
    fileMeta.push({
      path,
      change: change.after === undefined ? 'deleted' : change.before === undefined && change.before_hash === undefined && !change.before_unknown ? 'created' : 'modified',
      before_hash: change.before === undefined ? change.before_hash : hashContent(change.before),
      after_hash: change.after === undefined ? undefined : hashContent(change.after),
      line_hashes: change.after === undefined ? undefined : lineHashes(change.after, ranges),
    });
  }
  return {
    ...envelope(event.timestamp, context),
    files,
    metadata: dropUndefined({
      kind: event.ungovernedNote ? ('ungoverned' as const) : ('mutation' as const),
      intent_id: event.intent_id,
      intent_scope: event.intent_scope,
      invocation_id: event.invocation_id,
      session_id: event.session_id,
      agent: event.agent.name,
      model_id: event.agent.model_id,
      tool_name: event.tool,
      decision: event.ungovernedNote ? undefined : event.decision,
      approver: event.approver,
      approval: event.approval,
      operation: event.mutation_class,
      mutation_class: event.change_class?.class,
      mutation_class_rule: event.change_class?.rule,
      mutation_class_reason: event.change_class?.reason,
      files: fileMeta.map(dropUndefined),
      reconciled: event.reconciled,
      ungoverned: event.ungovernedNote,
    }),
  };
}

export function buildGovernanceRecord(event: GovernanceEvent, context: RecordContext): GovernanceRecord {
  return dropUndefined({
    kind: 'governance' as const,
    ...envelope(event.timestamp, context),
    invocation_id: event.invocation_id,
    session_id: event.session_id,
    agent: dropUndefined({ name: event.agent.name, model_id: event.agent.model_id }),
    intent_id: event.intent_id,
    tool_name: event.tool,
    decision: event.decision,
    code: event.code,
    message: event.message,
    paths: event.paths.map((p) => tracePath(context.workspaceRoot, p)),
    approver: event.approver,
    record_id: event.record_id,
    hook_event: event.hook_event,
    command: event.command,
  });
}

/** A writer's own note in the trace (quarantined tail, vanished anchor): a valid record that changes no file. */
export function buildTraceNote(kind: 'recovery' | 'discontinuity' | 'acceptance', details: Record<string, unknown>, context: RecordContext): AgentTraceRecord {
  return { ...envelope(new Date().toISOString(), context), files: [], metadata: { kind, ...details } };
}

export function buildGovernanceNote(kind: 'recovery' | 'discontinuity' | 'acceptance', details: Record<string, unknown>, context: RecordContext): GovernanceRecord {
  return { kind, ...envelope(new Date().toISOString(), context), ...details };
}

function envelope(timestamp: string, context: RecordContext) {
  return {
    version: AGENT_TRACE_VERSION,
    id: (context.newId ?? randomUUID)(),
    timestamp,
    ...(context.revision ? { vcs: { type: 'git' as const, revision: context.revision } } : {}),
    tool: { name: TOOL_NAME, version: context.toolVersion },
  };
}

function dropUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
