import { NO_SIGNING_KEY, type RecordSigner } from '../signing/recordSignature';
import { unsignedRecordRefusal } from '../signing/requiredSigning';
import { RevokedKeyWatch, revokedKeyRefusal } from '../signing/revokedKeyWatch';
import { toolError, type ToolError } from '../toolError';
import type { AnchorStore } from './anchorStore';
import { ChainedJsonlLog, type FsyncMode, type NoteKind } from './chainedLog';
import type { LockOptions } from '../io/crossProcessLock';
import { governorHome } from '../paths/governorHome';
import { loadRedactionKey } from '../redaction/redactionKey';
import { SecretRedactor } from '../redaction/secretRedactor';
import type { RecordExporter } from '../telemetry/recordExporter';
import { findGitDirs, GitHeadReader, type GitHead } from './gitHead';
import { governanceChainFields, traceChainFields } from './traceChain';
import { GOVERNANCE_LOG_FILE, governanceLogPath, TRACE_FILE, traceFilePath } from './traceFiles';
import {
  buildGovernanceNote,
  buildGovernanceRecord,
  buildMutationRecord,
  buildTraceNote,
  type RecordContext,
} from './traceRecord';
import type { GovernanceEvent, LandingFile, MutationEvent, TraceSink, WriteAhead } from './traceSink';
import { WriteAheadJournal, type JournalEntry } from './writeAheadJournal';
import { ensureOrchestrationGitFiles } from './orchestrationGitFiles';
import { gitExplainsAnchor } from './anchorGitExplanation';

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
  /** The key records are signed with when they are written; none: each record says it is unsigned. */
  signer?: () => RecordSigner | undefined;
  /** Where the per-user redaction key lives (see loadRedactionKey); default governorHome(). */
  governorHome?: string;
  /** Hears each record once it stands, as written (redacted): the OpenTelemetry export. It only queues. */
  exporter?: RecordExporter;
}

/** A record that now stands in one of the logs, as `onRecorded` listeners hear of it. */
export interface RecordedNotice {
  log: typeof TRACE_FILE | typeof GOVERNANCE_LOG_FILE;
  /** The record's `id`. */
  id: string;
  invocation_id: string;
  session_id: string;
  tool: string;
}

/**
 * The TraceSink the hook engine writes to: mutations become Agent Trace records in
 * `.orchestration/agent_trace.jsonl`, refusals/rejections/errors governance records in
 * `.orchestration/governance_log.jsonl`; each log has its own lock, chain and anchor.
 */
export class JsonlTraceSink implements TraceSink {
  private readonly trace: ChainedJsonlLog;
  private readonly governance: ChainedJsonlLog;
  private gitHead: Promise<GitHeadReader | undefined> | undefined;
  private readonly journal: WriteAheadJournal;
  private recovered: Promise<void> | undefined;
  private gitFiles: Promise<void> | undefined;
  private readonly listeners = new Set<(notice: RecordedNotice) => void>();
  /** Every string of a record passes it before the record is chained: the logs never hold a secret (see SecretRedactor). */
  private readonly redactor: SecretRedactor;
  /** Asked before each signature: a key the workspace revoked (say, by a `git pull`) signs nothing from then on. */
  private readonly revocations: RevokedKeyWatch;

  constructor(private readonly options: JsonlTraceSinkOptions) {
    this.journal = new WriteAheadJournal(options.workspaceRoot);
    const home = options.governorHome ?? governorHome();
    this.redactor = new SecretRedactor(() => loadRedactionKey(home));
    this.revocations = new RevokedKeyWatch(options.workspaceRoot);
    const common = {
      fsync: options.fsync ?? 'always',
      batchMs: options.batchMs,
      anchors: options.anchors,
      lock: options.lock,
      branch: async () => (await this.head())?.ref ?? '',
      sign: (text: string) => {
        const signer = options.signer?.();
        if (signer) {
          const revoked = this.revocations.revoked(signer.keyId);
          // Fail closed: the append throws, so a write-ahead change is not made and nothing is signed with the key.
          if (revoked) throw new Error(revokedKeyRefusal(signer, revoked));
          return signer.sign(text);
        }
        const refusal = unsignedRecordRefusal();
        if (refusal) throw new Error(refusal);
        return NO_SIGNING_KEY;
      },
      signingKeyId: () => options.signer?.()?.keyId,
      signedByMe: (text: string, signature: unknown) => options.signer?.()?.signedByMe(text, signature) ?? false,
    };
    this.trace = new ChainedJsonlLog({
      ...common,
      path: traceFilePath(options.workspaceRoot),
      name: TRACE_FILE,
      explainedByGit: (anchor) => gitExplainsAnchor(options.workspaceRoot, TRACE_FILE, anchor),
      fields: traceChainFields,
      note: async (kind: NoteKind, details) => ({ ...buildTraceNote(kind, details, await this.context()) }),
    });
    this.governance = new ChainedJsonlLog({
      ...common,
      path: governanceLogPath(options.workspaceRoot),
      name: GOVERNANCE_LOG_FILE,
      explainedByGit: (anchor) => gitExplainsAnchor(options.workspaceRoot, GOVERNANCE_LOG_FILE, anchor),
      fields: governanceChainFields,
      note: async (kind: NoteKind, details) => ({ ...buildGovernanceNote(kind, details, await this.context()) }),
    });
  }

  /** Why this sink cannot write a record now (signing is required and it has no key, or its key is revoked), or undefined. */
  signingProblem(): ToolError | undefined {
    const signer = this.options.signer?.();
    if (signer) {
      const revoked = this.revocations.revoked(signer.keyId);
      return revoked ? toolError('SIGNING_KEY_REVOKED', revokedKeyRefusal(signer, revoked), { signer: signer.name, key_id: signer.keyId, file: revoked.file }) : undefined;
    }
    const refusal = unsignedRecordRefusal();
    return refusal ? toolError('SIGNING_REQUIRED', refusal) : undefined;
  }

  async recordMutation(event: MutationEvent): Promise<void> {
    await this.setUpGitOnce();
    await this.recoverOnce();
    const record = buildMutationRecord(await this.redactEvent(event), await this.context());
    await this.trace.append(record as unknown as Record<string, unknown>);
    this.options.exporter?.export('agent_trace', record as unknown as Record<string, unknown>);
    this.notify({ log: TRACE_FILE, id: record.id, invocation_id: event.invocation_id, session_id: event.session_id, tool: event.tool });
  }

  async recordAhead(event: MutationEvent, landing: LandingFile[]): Promise<WriteAhead> {
    await this.setUpGitOnce();
    await this.recoverOnce();
    const redacted = await this.redactEvent(event);
    const record = buildMutationRecord(redacted, await this.context());
    const about = { invocation_id: redacted.invocation_id, session_id: redacted.session_id, agent: redacted.agent, intent_id: redacted.intent_id, tool: redacted.tool };
    const entry = { record_id: record.id, ...about, files: landing };
    // The journal entry first: a crash after the append must leave something that names the record.
    const file = this.journal.begin(entry);
    try {
      await this.trace.append(record as unknown as Record<string, unknown>);
    } catch (error) {
      // The line may be in the log already (the append failed after its write, at fsync or the anchor): void it.
      // If even that fails, the journal entry stays and the next governor to write reconciles it.
      try {
        await this.voidRecord(entry, `Trace record ${record.id} could not be confirmed (${error instanceof Error ? error.message : String(error)}), so its change was not made.`);
        this.journal.end(file);
      } catch {
        // left for recovery
      }
      throw error;
    }
    let settled = false;
    return {
      landed: async () => {
        if (settled) return;
        settled = true;
        try {
          this.journal.end(file);
        } catch {
          // The change is on disk and its record stands; a leftover entry reconciles as landed later.
        }
        this.options.exporter?.export('agent_trace', record as unknown as Record<string, unknown>);
        this.notify({ log: TRACE_FILE, id: record.id, invocation_id: event.invocation_id, session_id: event.session_id, tool: event.tool });
      },
      abandoned: async (reason) => {
        if (settled) return;
        settled = true;
        await this.voidRecord(entry, `The change recorded in trace record ${record.id} did not land: ${reason.message}`, reason.code);
        this.journal.end(file);
      },
    };
  }

  /**
   * A human's acceptance, for every clone, of the discontinuity notes named by hash per workspace log (see
   * `governor trace reanchor`): one `acceptance` record in each log, chained and signed like every record.
   */
  async recordAcceptance(accepted: Readonly<Record<string, readonly string[]>>, acceptedBy: string | undefined): Promise<void> {
    await this.setUpGitOnce();
    for (const [file, log] of [[TRACE_FILE, this.trace], [GOVERNANCE_LOG_FILE, this.governance]] as const) {
      const hashes = accepted[file];
      if (hashes?.length) await log.appendNote('acceptance', { accepts: [...hashes], ...(acceptedBy ? { accepted_by: await this.redactor.redactText(acceptedBy) } : {}) });
    }
  }

  async recordGovernance(event: GovernanceEvent): Promise<void> {
    await this.setUpGitOnce();
    const record = buildGovernanceRecord(await this.redactor.redactDeep(event), await this.context());
    await this.governance.append(record as unknown as Record<string, unknown>);
    this.options.exporter?.export('governance_log', record as unknown as Record<string, unknown>);
    this.notify({ log: GOVERNANCE_LOG_FILE, id: record.id, invocation_id: event.invocation_id, session_id: event.session_id, tool: event.tool });
  }

  /**
   * The event with every string redacted but the files' contents, which only their hashes and line ranges
   * leave in the record. Redacted before the record is built: the record derives text from it (an intent's
   * URL-encoded name, a model id cut at 250 characters) where the detector would no longer see the secret.
   */
  private async redactEvent(event: MutationEvent): Promise<MutationEvent> {
    const { files, ...rest } = event;
    const redacted = await this.redactor.redactDeep(rest);
    const paths = await Promise.all(files.map((f) => this.redactor.redactText(f.path)));
    return { ...redacted, files: files.map((f, i) => (paths[i] === f.path ? f : { ...f, path: paths[i] })) };
  }

  /**
   * Calls `listener` for each record once it stands: acknowledged by its log, and for a write-ahead record once
   * its change landed (one that did not land is followed by its governance `void` record instead). Returns the
   * unsubscribe.
   */
  onRecorded(listener: (notice: RecordedNotice) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private notify(notice: RecordedNotice): void {
    // Listeners are other extensions' code: whatever they do, the record stands and the call goes on.
    for (const listener of [...this.listeners]) {
      try {
        listener({ ...notice });
      } catch {
        // ignored on purpose, see above
      }
    }
  }

  /** Opens both logs now, quarantining a torn tail left by a crash, and reconciles changes a dead writer left pending. */
  async open(): Promise<void> {
    await Promise.all([this.trace.open(), this.governance.open()]);
    await this.recoverOnce();
  }

  /**
   * Once per sink: a writer that died between its write-ahead record and its rename left a journal entry.
   * The disk tells how it ended: landed (the record stands), not landed (a `void` governance record says so),
   * or unknowable (the file changed since; a `void` record says that too, so no reader trusts it blindly).
   */
  /**
   * Before the first record a process writes: the marks git needs to merge the logs and the ignores that keep scratch
   * paths out of commits. A folder git cannot be told about (read-only) is reported by check and doctor instead.
   */
  private setUpGitOnce(): Promise<void> {
    this.gitFiles ??= ensureOrchestrationGitFiles(this.options.workspaceRoot).then(() => undefined, () => undefined);
    return this.gitFiles;
  }

  private recoverOnce(): Promise<void> {
    // A recovery that failed (a lock timeout) is tried again by the next write, not remembered as a failure.
    this.recovered ??= this.recover().catch((error: unknown) => {
      this.recovered = undefined;
      throw error;
    });
    return this.recovered;
  }

  private async recover(): Promise<void> {
    for (const { file, entry } of this.journal.orphans()) {
      const outcome = this.journal.reconcile(entry);
      if (outcome === 'not_landed') {
        await this.voidRecord(entry, `The change recorded in trace record ${entry.record_id} did not land: its writer (pid ${entry.pid}) stopped before the write.`);
      } else if (outcome === 'unknown') {
        await this.voidRecord(entry, `Trace record ${entry.record_id}: its writer (pid ${entry.pid}) stopped around the write and the file has changed since, so whether the change landed is unknown.`);
      }
      this.journal.end(file);
    }
  }

  private async voidRecord(entry: Omit<JournalEntry, 'pid' | 'pid_start' | 'host' | 'started'>, message: string, code: GovernanceEvent['code'] = 'HOOK_ERROR'): Promise<void> {
    await this.recordGovernance({
      timestamp: new Date().toISOString(),
      invocation_id: entry.invocation_id,
      session_id: entry.session_id,
      agent: entry.agent,
      intent_id: entry.intent_id,
      tool: entry.tool,
      decision: 'void',
      code,
      message,
      paths: entry.files.map((f) => f.path),
      record_id: entry.record_id,
    });
  }

  /** Forces every acknowledged record to disk, whatever the fsync mode. */
  async flush(): Promise<void> {
    await Promise.all([this.trace.flush(), this.governance.flush()]);
  }

  async close(): Promise<void> {
    // What is queued for the collector goes out now, briefly: close is the last call before a door stops.
    await Promise.all([this.trace.close(), this.governance.close(), this.options.exporter?.flush()]);
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

  /** HEAD as .git says it on every record (commits move it; read again when its files change); the repository lookup itself is done once. */
  private async head(): Promise<GitHead | undefined> {
    this.gitHead ??= findGitDirs(this.options.workspaceRoot).then((dirs) => (dirs ? new GitHeadReader(dirs) : undefined));
    return (await this.gitHead)?.read();
  }
}
