import { Minimatch } from 'minimatch';
import type { Intent } from '../../core/intents/intent';
import { modelsOf } from '../../core/trace/traceReader';
import type { AgentTraceRecord, GovernanceRecord } from '../../core/trace/traceRecord';
import type { ActivityChart, Facets, InspectorFilter, InspectorRow, IntentSummary, RowSource } from '../../shared/inspectorProtocol';

/** Where a row's full record lives, so the index keeps summaries only and rereads one line on demand. */
export interface RowLocation {
  source: RowSource;
  offset: number;
  bytes: number;
}

export interface TracePage {
  total: number;
  start: number;
  rows: InspectorRow[];
}

const CHART_BUCKETS = 24;

/**
 * The inspector's in-memory index of both logs: one small summary per record (not the record: a 100k-record
 * trace is ~100 MB of JSON, its summaries a few MB), newest first, with the last filter's matches cached so
 * scrolling pages through them costs a slice. Pure: fed by traceIndexLoader, tested in Node.
 */
/** Rows kept by a filter that is not a row's own field (what a branch added): lines per log; `key` names the set for the cache. */
export interface OnlyLines {
  key: string;
  lines: Record<RowSource, ReadonlySet<number>>;
}

export class TraceIndex {
  private readonly rows: InspectorRow[] = [];
  private readonly locations: RowLocation[] = [];
  private readonly byId = new Map<string, number>();
  private order: number[] | undefined;
  private cached: { key: string; matches: number[] } | undefined;

  /** `keyBase` shifts every key, so rows of a second index (the preview) can never be mistaken for these. */
  constructor(private readonly keyBase = 0) {}

  get size(): number {
    return this.rows.length;
  }

  /** Adds one parsed line of a log; returns its key. */
  add(source: RowSource, line: number, location: { offset: number; bytes: number }, record: unknown): number {
    const key = this.keyBase + this.rows.length;
    const row = source === 'trace' ? traceRow(key, line, record as AgentTraceRecord) : governanceRow(key, line, record as GovernanceRecord);
    this.rows.push(row);
    this.locations.push({ source, ...location });
    if (row.id) this.byId.set(row.id, key);
    this.order = undefined;
    this.cached = undefined;
    return key;
  }

  /** Forgets every row: a log shrank (rewritten or truncated), so the loader reads both again and keys start over. */
  clear(): void {
    this.rows.length = 0;
    this.locations.length = 0;
    this.byId.clear();
    this.order = undefined;
    this.cached = undefined;
  }

  row(key: number): InspectorRow | undefined {
    return this.rows[key - this.keyBase];
  }

  location(key: number): RowLocation | undefined {
    return this.locations[key - this.keyBase];
  }

  keyOf(recordId: string): number | undefined {
    return this.byId.get(recordId);
  }

  /** The row of the line starting at `offset` in a log (searched from the newest rows, where previews point). */
  keyAt(source: RowSource, offset: number): number | undefined {
    for (let i = this.locations.length - 1; i >= 0; i -= 1) {
      const location = this.locations[i];
      if (location.offset === offset && location.source === source) return this.keyBase + i;
    }
    return undefined;
  }

  /** One page of the rows matching `filter` (and in `only`, when given), newest first. */
  query(filter: InspectorFilter, start: number, count: number, only?: OnlyLines): TracePage {
    const matches = this.matches(filter, only);
    const from = Math.max(0, Math.min(start, matches.length));
    return { total: matches.length, start: from, rows: matches.slice(from, from + Math.max(0, count)).map((k) => this.rows[k]) };
  }

  facets(): Facets {
    const sets = { intents: new Set<string>(), agents: new Set<string>(), models: new Set<string>(), decisions: new Set<string>() };
    for (const row of this.rows) {
      if (row.intent) sets.intents.add(row.intent);
      if (row.agent) sets.agents.add(row.agent);
      if (row.model) for (const m of row.model.split(',')) sets.models.add(m);
      if (row.decision) sets.decisions.add(row.decision);
    }
    const sorted = (s: Set<string>) => [...s].sort();
    return { intents: sorted(sets.intents), agents: sorted(sets.agents), models: sorted(sets.models), decisions: sorted(sets.decisions) };
  }

  /** Each intent of the plan plus any the logs name that the plan no longer has, with its counts and last activity. */
  intentSummaries(plan: Intent[]): IntentSummary[] {
    const byId = new Map<string, IntentSummary>();
    for (const intent of plan) {
      byId.set(intent.id, { id: intent.id, name: intent.name, status: intent.status, scope: intent.owned_scope, changes: 0, governanceEvents: 0 });
    }
    for (const row of this.rows) {
      if (!row.intent) continue;
      let summary = byId.get(row.intent);
      if (!summary) {
        summary = { id: row.intent, name: '', status: 'NOT IN PLAN', scope: [], changes: 0, governanceEvents: 0 };
        byId.set(row.intent, summary);
      }
      if (row.source === 'trace') summary.changes += 1;
      else summary.governanceEvents += 1;
      if (!summary.lastActivity || row.timestamp > summary.lastActivity) summary.lastActivity = row.timestamp;
    }
    return [...byId.values()];
  }

  /** Changes per intent in CHART_BUCKETS equal slices of the trace's time span. */
  chart(): ActivityChart {
    let min = Infinity;
    let max = -Infinity;
    const times: number[] = new Array(this.rows.length);
    this.rows.forEach((row, i) => {
      const at = Date.parse(row.timestamp);
      times[i] = at;
      if (row.source !== 'trace' || !row.intent || Number.isNaN(at)) return;
      if (at < min) min = at;
      if (at > max) max = at;
    });
    if (min === Infinity) return { buckets: [], series: [] };
    const width = Math.max(1, (max - min) / CHART_BUCKETS);
    const series = new Map<string, number[]>();
    this.rows.forEach((row, i) => {
      if (row.source !== 'trace' || !row.intent || Number.isNaN(times[i])) return;
      let counts = series.get(row.intent);
      if (!counts) series.set(row.intent, (counts = new Array<number>(CHART_BUCKETS).fill(0)));
      counts[Math.min(CHART_BUCKETS - 1, Math.floor((times[i] - min) / width))] += 1;
    });
    const buckets = Array.from({ length: CHART_BUCKETS }, (_, b) => new Date(min + b * width).toISOString());
    return { buckets, series: [...series].sort(([a], [b]) => a.localeCompare(b)).map(([intent, counts]) => ({ intent, counts })) };
  }

  private matches(filter: InspectorFilter, only?: OnlyLines): number[] {
    const key = `${JSON.stringify(normalise(filter))}\0${only?.key ?? ''}`;
    if (this.cached?.key === key) return this.cached.matches;
    const test = compileRowFilter(filter);
    const inOnly = only ? (row: InspectorRow) => only.lines[row.source].has(row.line) : () => true;
    const matches = this.sorted().filter((k) => test(this.rows[k]) && inOnly(this.rows[k]));
    this.cached = { key, matches };
    return matches;
  }

  /** Keys newest first; ISO timestamps compare as strings. Rebuilt only after rows were added. */
  private sorted(): number[] {
    if (!this.order) {
      const rows = this.rows;
      this.order = rows.map((_, k) => k).sort((a, b) => (rows[a].timestamp < rows[b].timestamp ? 1 : rows[a].timestamp > rows[b].timestamp ? -1 : b - a));
    }
    return this.order;
  }
}

function normalise(filter: InspectorFilter): InspectorFilter {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(filter)) if (typeof v === 'string' && v !== '') out[k] = v;
  return out;
}

/** The filter as one predicate; a file filter with `*` or `?` is a glob, otherwise a substring. */
export function compileRowFilter(raw: InspectorFilter): (row: InspectorRow) => boolean {
  const filter = normalise(raw);
  const glob = filter.file && /[*?]/.test(filter.file) ? new Minimatch(filter.file, { dot: true }) : undefined;
  return (row) => {
    if (filter.intent !== undefined && row.intent !== filter.intent) return false;
    if (filter.agent !== undefined && row.agent !== filter.agent) return false;
    if (filter.decision !== undefined && row.decision !== filter.decision) return false;
    if (filter.mutationClass !== undefined && row.mutationClass !== filter.mutationClass) return false;
    if (filter.source !== undefined && row.source !== filter.source) return false;
    if (filter.model !== undefined && !row.model.split(',').includes(filter.model)) return false;
    if (filter.since !== undefined && row.timestamp < filter.since) return false;
    if (filter.until !== undefined && row.timestamp > filter.until) return false;
    if (filter.file !== undefined) {
      const file = filter.file;
      if (!row.files.some((path) => (glob ? glob.match(path) : path.includes(file)))) return false;
    }
    return true;
  };
}

function traceRow(key: number, line: number, record: AgentTraceRecord): InspectorRow {
  const meta = record.metadata ?? {};
  return {
    key,
    source: 'trace',
    line,
    id: String(record.id ?? ''),
    timestamp: String(record.timestamp ?? ''),
    intent: str(meta.intent_id),
    agent: str(meta.agent),
    model: modelsOf(record).join(','),
    decision: str(meta.decision),
    kind: str(meta.kind) || 'mutation',
    code: '',
    mutationClass: meta.mutation_class === 'AST_REFACTOR' || meta.mutation_class === 'INTENT_EVOLUTION' ? meta.mutation_class : '',
    files: (record.files ?? []).map((f) => f.path),
  };
}

function governanceRow(key: number, line: number, record: GovernanceRecord): InspectorRow {
  return {
    key,
    source: 'governance',
    line,
    id: String(record.id ?? ''),
    timestamp: String(record.timestamp ?? ''),
    intent: str(record.intent_id),
    agent: str(record.agent?.name),
    model: str(record.agent?.model_id),
    decision: str(record.decision),
    kind: str(record.kind) || 'governance',
    code: str(record.code),
    mutationClass: '',
    files: Array.isArray(record.paths) ? record.paths.map(String) : [],
  };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
