import { blameCandidates, type BlameCandidate } from '../trace/traceBlame';
import type { AgentTraceRecord, GovernanceRecord } from '../trace/traceRecord';

/** One change record of the trace, reduced to what the map shows. */
export interface MappedChange {
  id: string;
  /** Absent: an agent's native change made with no intent bound. */
  intentId?: string;
  timestamp: string;
  /** Line of the trace holding the record: orders records with the same timestamp. */
  traceLine: number;
  agent?: string;
  /** Each path once, with `created | modified | deleted` as the record's metadata says. */
  files: { path: string; change?: string }[];
}

/** Standing changes of one intent (or of none), in total and per file: how many, and the newest. */
export interface IntentActivity {
  changes: number;
  last: MappedChange;
  files: Map<string, { changes: number; last: MappedChange }>;
}

/** Refusals of one code under one intent: how many, and the newest. */
export interface RefusalTally {
  code: string;
  count: number;
  last: { id: string; timestamp: string; tool?: string; paths: string[]; line: number };
}

/**
 * What the intent map is made of, folded record by record from both logs so that an appended record costs
 * its own parse and nothing more: counts and the newest change per intent and file, every range the changes
 * wrote (the candidates blame finds again in the current content), the records a `void` governance record
 * withdrew, and refusals per intent and code. No record is kept whole (100k records fold into ~30 MB). The
 * governance log is read first, so a record whose void is known is never folded in. Pure: the keeper feeds it.
 */
export class IntentMapModel {
  /** Ids of the records folded in, so a void that arrives after its record is noticed. */
  private readonly folded = new Set<string>();
  private readonly candidatesByPath = new Map<string, BlameCandidate[]>();
  /** Bumped whenever a path's candidates (or the records behind them) change, so cached attributions expire. */
  private readonly generations = new Map<string, number>();
  private readonly voided = new Set<string>();
  private readonly refusals = new Map<string, Map<string, RefusalTally>>();
  private activity = new Map<string | undefined, IntentActivity>();
  private stale = false;
  private counts = { trace: 0, governance: 0 };
  /** Intents, agents, paths and change kinds repeat across 100k records: one string each (a large trace's model stays small). */
  private readonly strings = new Map<string, string>();

  /**
   * A void arrived for a record already folded in: the model keeps no per-record list to take it out of (that
   * list would double its size), so the keeper reads both logs again, the governance log first.
   */
  get needsReread(): boolean {
    return this.stale;
  }

  /** Records read from each log (every parsed line, notes included). */
  get recordCounts(): { trace: number; governance: number } {
    return { ...this.counts };
  }

  addTrace(traceLine: number, value: unknown): void {
    this.counts.trace += 1;
    if (!isObject(value)) return;
    const record = value as unknown as AgentTraceRecord;
    const meta: Record<string, unknown> = isObject(record.metadata) ? record.metadata : {};
    if (meta.kind !== undefined && meta.kind !== 'mutation') return; // the writer's own notes change no file
    if (typeof record.id !== 'string' || !Array.isArray(record.files)) return;
    if (this.voided.has(record.id)) return; // its change did not land (or may not have): it claims nothing
    this.folded.add(record.id);
    const change: MappedChange = {
      id: record.id,
      intentId: this.intern(meta.intent_id),
      timestamp: typeof record.timestamp === 'string' ? record.timestamp : '',
      traceLine,
      agent: this.intern(meta.agent),
      files: [],
    };
    const kinds = new Map<string, unknown>();
    for (const file of Array.isArray(meta.files) ? meta.files : []) if (isObject(file) && typeof file.path === 'string') kinds.set(file.path, file.change);
    // One attribution per record, shared by its ranges: the map needs only whose lines they are.
    const attribution = { recordId: change.id, intentId: change.intentId };
    for (const file of record.files) {
      if (!isObject(file) || typeof file.path !== 'string' || change.files.some((f) => f.path === file.path)) continue;
      const path = this.intern(file.path) as string;
      change.files.push({ path, change: this.intern(kinds.get(path)) });
      const candidates = blameCandidates(traceLine, record, path).map((c) => ({ ...c, timestamp: change.timestamp, attribution }));
      if (candidates.length) {
        const list = this.candidatesByPath.get(path);
        if (list) list.push(...candidates);
        else this.candidatesByPath.set(path, candidates);
      }
      this.bump(path);
    }
    count(this.activity, change);
  }

  addGovernance(line: number, value: unknown): void {
    this.counts.governance += 1;
    if (!isObject(value)) return;
    const record = value as unknown as GovernanceRecord;
    if (record.kind !== 'governance') return;
    if (record.decision === 'void') {
      // The change that record describes did not land (or may not have): it no longer claims lines.
      if (typeof record.record_id !== 'string' || this.voided.has(record.record_id)) return;
      this.voided.add(record.record_id);
      if (this.folded.has(record.record_id)) this.stale = true;
      return;
    }
    if (record.decision !== 'deny' && record.decision !== 'reject' && record.decision !== 'error') return;
    const intent = typeof record.intent_id === 'string' ? record.intent_id : '';
    const code = typeof record.code === 'string' ? record.code : 'UNKNOWN';
    let byCode = this.refusals.get(intent);
    if (!byCode) this.refusals.set(intent, (byCode = new Map()));
    const last = {
      id: typeof record.id === 'string' ? record.id : '',
      timestamp: typeof record.timestamp === 'string' ? record.timestamp : '',
      tool: typeof record.tool_name === 'string' ? record.tool_name : undefined,
      paths: Array.isArray(record.paths) ? record.paths.filter((p): p is string => typeof p === 'string') : [],
      line,
    };
    const tally = byCode.get(code);
    if (!tally) byCode.set(code, { code, count: 1, last });
    else {
      tally.count += 1;
      if (newer(last, tally.last)) tally.last = last;
    }
  }

  /** Forget everything: a log was rewritten (or a void came late), so both are read again from the start. */
  clear(): void {
    this.folded.clear();
    this.candidatesByPath.clear();
    for (const path of this.generations.keys()) this.bump(path);
    this.voided.clear();
    this.refusals.clear();
    this.activity = new Map();
    this.stale = false;
    this.counts = { trace: 0, governance: 0 };
  }

  /** Standing changes (not voided) by intent (`undefined`: none bound). */
  intentActivity(): ReadonlyMap<string | undefined, IntentActivity> {
    return this.activity;
  }

  /** Every path a standing change touched. */
  touchedPaths(): string[] {
    const paths = new Set<string>();
    for (const activity of this.intentActivity().values()) for (const path of activity.files.keys()) paths.add(path);
    return [...paths];
  }

  /** The ranges standing records wrote to `path`, for blame's attribution. */
  candidatesFor(path: string): BlameCandidate[] {
    return this.candidatesByPath.get(path) ?? [];
  }

  /** Changes whenever what `candidatesFor(path)` returns may have changed. */
  generation(path: string): number {
    return this.generations.get(path) ?? 0;
  }

  /** Refusals by intent (`''`: none bound) and code. */
  refusalsByIntent(): Map<string, RefusalTally[]> {
    const out = new Map<string, RefusalTally[]>();
    for (const [intent, byCode] of this.refusals) out.set(intent, [...byCode.values()]);
    return out;
  }

  private intern(value: unknown): string | undefined {
    if (typeof value !== 'string') return undefined;
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  private bump(path: string): void {
    this.generations.set(path, (this.generations.get(path) ?? 0) + 1);
  }
}

/** Adds one change to the tallies; changes arrive in trace order, so on equal timestamps the later line wins, as in blame. */
function count(activity: Map<string | undefined, IntentActivity>, change: MappedChange): void {
  let entry = activity.get(change.intentId);
  if (!entry) activity.set(change.intentId, (entry = { changes: 0, last: change, files: new Map() }));
  entry.changes += 1;
  if (change.timestamp >= entry.last.timestamp) entry.last = change;
  for (const { path } of change.files) {
    const file = entry.files.get(path);
    if (!file) entry.files.set(path, { changes: 1, last: change });
    else {
      file.changes += 1;
      if (change.timestamp >= file.last.timestamp) file.last = change;
    }
  }
}

/** Newest by timestamp (ISO strings compare as text), then by position in its log. */
export function newer(a: { timestamp: string; line: number }, b: { timestamp: string; line: number }): boolean {
  return a.timestamp > b.timestamp || (a.timestamp === b.timestamp && a.line > b.line);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
