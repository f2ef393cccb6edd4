import type { AnchorStore } from './anchorStore';
import { ChainedJsonlLog, type FsyncMode, type NoteKind } from './chainedLog';
import type { LockOptions } from './crossProcessLock';
import { findGitDirs, readGitHead, type GitDirs, type GitHead } from './gitHead';
import { governanceChainFields, traceChainFields } from './traceChain';
import { GOVERNANCE_LOG_FILE, governanceLogPath, TRACE_FILE, traceFilePath } from './traceFiles';
import {
  buildGovernanceNote,
  buildGovernanceRecord,
  buildMutationRecord,
  buildTraceNote,
  type RecordContext,
} from './traceRecord';
import type { GovernanceEvent, MutationEvent, TraceSink } from './traceSink';

export interface JsonlTraceSinkOptions {
  /** Absolute workspace root; the logs go to `.orchestration/` under it. */
  workspaceRoot: string;
  /** Our version, recorded as `tool.version` (the host passes the extension's, the CLI its bundle's). */
  toolVersion: string;
  /** Where heads are anchored outside the agent's reach (FileAnchorStore for the CLI, global storage in the host). */
  anchors: AnchorStore;
  /** Durability of an acknowledged record; see FsyncMode. Default `always`. */
  fsync?: FsyncMode;
  /** Fsync delay under `batch` (default 50 ms). */
  batchMs?: number;
  lock?: LockOptions;
  /** Record ids; tests pass a deterministic one. */
  newId?: () => string;
}

/**
 * The TraceSink the hook engine writes to: mutations become Agent Trace records in
 * `.orchestration/agent_trace.jsonl`, refusals/rejections/errors governance records in
 * `.orchestration/governance_log.jsonl`; each log has its own lock, chain and anchor.
 */
export class JsonlTraceSink implements TraceSink {
  private readonly trace: ChainedJsonlLog;
  private readonly governance: ChainedJsonlLog;
  private gitDirs: Promise<GitDirs | undefined> | undefined;

  constructor(private readonly options: JsonlTraceSinkOptions) {
    const common = {
      fsync: options.fsync ?? 'always',
      batchMs: options.batchMs,
      anchors: options.anchors,
      lock: options.lock,
      branch: async () => (await this.head())?.ref ?? '',
    };
    this.trace = new ChainedJsonlLog({
      ...common,
      path: traceFilePath(options.workspaceRoot),
      name: TRACE_FILE,
      fields: traceChainFields,
      note: async (kind: NoteKind, details) => ({ ...buildTraceNote(kind, details, await this.context()) }),
    });
    this.governance = new ChainedJsonlLog({
      ...common,
      path: governanceLogPath(options.workspaceRoot),
      name: GOVERNANCE_LOG_FILE,
      fields: governanceChainFields,
      note: async (kind: NoteKind, details) => ({ ...buildGovernanceNote(kind, details, await this.context()) }),
    });
  }

  async recordMutation(event: MutationEvent): Promise<void> {
    const record = buildMutationRecord(event, await this.context());
    await this.trace.append(record as unknown as Record<string, unknown>);
  }

  async recordGovernance(event: GovernanceEvent): Promise<void> {
    const record = buildGovernanceRecord(event, await this.context());
    await this.governance.append(record as unknown as Record<string, unknown>);
  }

  /** Opens both logs now, quarantining a torn tail left by a crash, instead of at the first record. */
  async open(): Promise<void> {
    await Promise.all([this.trace.open(), this.governance.open()]);
  }

  /** Forces every acknowledged record to disk, whatever the fsync mode. */
  async flush(): Promise<void> {
    await Promise.all([this.trace.flush(), this.governance.flush()]);
  }

  async close(): Promise<void> {
    await Promise.all([this.trace.close(), this.governance.close()]);
  }

  private async context(): Promise<RecordContext> {
    const head = await this.head();
    return {
      workspaceRoot: this.options.workspaceRoot,
      toolVersion: this.options.toolVersion,
      revision: head?.revision,
      newId: this.options.newId,
    };
  }

  /** HEAD read from .git on every record (commits move it); the repository lookup itself is done once. */
  private async head(): Promise<GitHead | undefined> {
    this.gitDirs ??= findGitDirs(this.options.workspaceRoot);
    const dirs = await this.gitDirs;
    return dirs ? readGitHead(dirs) : undefined;
  }
}
