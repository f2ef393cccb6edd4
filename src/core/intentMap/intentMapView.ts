import type { IntentsSnapshot } from '../intents/intent';
import type { IntentMapModel, MappedChange, RefusalTally } from './intentMapModel';

/** A run of consecutive lines of a file's current content that one record's ranges claim (1-based, inclusive). */
export interface OwnedRun {
  recordId: string;
  intentId?: string;
  start: number;
  end: number;
}

/** What a touched file holds now, as far as the map is concerned. */
export type FileState =
  | { kind: 'present'; runs: OwnedRun[] }
  | { kind: 'missing' }
  /** Not read: outside the workspace, not a regular file, too large, unreadable. */
  | { kind: 'unreadable'; reason: string };

export interface ChangeRef {
  id: string;
  timestamp: string;
  agent?: string;
  /** `created | modified | deleted`, for a file's last change. */
  change?: string;
}

export interface FileView {
  path: string;
  state: FileState['kind'];
  reason?: string;
  /** Lines of the current content this intent's records still hold, merged. */
  lines: [number, number][];
  /** Each record of this intent that still holds lines, with its lines, ordered by first line. */
  records: { id: string; lines: [number, number][] }[];
  changes: number;
  last: ChangeRef;
}

export interface IntentView {
  /** Undefined: changes an agent's native tools made with no intent bound. */
  id?: string;
  name?: string;
  /** The plan's status, or `not in the plan` for an intent only the logs name. */
  status?: string;
  scope: string[];
  changes: number;
  last?: ChangeRef;
  files: FileView[];
  refusals: RefusalTally[];
}

export interface IntentMapView {
  /** Why the plan could not be read, when it could not (names, statuses and scopes are then missing). */
  planProblem?: string;
  records: { trace: number; governance: number };
  intents: IntentView[];
}

/**
 * Everything the map shows, sorted so that the same logs, plan and files always give the same view: intents by
 * id (changes with no intent last), files by path, records by first line, refusals by code. Code-point order,
 * not the locale's, so every machine sorts alike.
 */
export function buildIntentMapView(model: IntentMapModel, plan: IntentsSnapshot, files: ReadonlyMap<string, FileState>): IntentMapView {
  const intents = new Map<string | undefined, IntentView>();
  const entry = (id: string | undefined): IntentView => {
    let view = intents.get(id);
    if (!view) intents.set(id, (view = { id, status: id === undefined ? undefined : 'not in the plan', scope: [], changes: 0, files: [], refusals: [] }));
    return view;
  };
  if (plan.valid) {
    for (const intent of plan.intents) Object.assign(entry(intent.id), { name: intent.name, status: intent.status, scope: [...intent.owned_scope] });
  }

  for (const [intentId, activity] of model.intentActivity()) {
    const view = entry(intentId);
    view.changes = activity.changes;
    view.last = ref(activity.last);
    for (const [path, { changes, last }] of activity.files) view.files.push(fileView(path, intentId, changes, last, files.get(path)));
    view.files.sort((a, b) => compare(a.path, b.path));
  }
  for (const [intentId, tallies] of model.refusalsByIntent()) {
    entry(intentId === '' ? undefined : intentId).refusals = [...tallies].sort((a, b) => compare(a.code, b.code));
  }

  const sorted = [...intents.values()].sort((a, b) => (a.id === undefined ? 1 : b.id === undefined ? -1 : compare(a.id, b.id)));
  return {
    planProblem: plan.valid ? undefined : plan.problems.map((p) => `line ${p.line}, column ${p.column}: ${p.message}`).join('; '),
    records: model.recordCounts,
    intents: sorted,
  };
}

function fileView(path: string, intentId: string | undefined, changes: number, last: MappedChange, state: FileState | undefined): FileView {
  const view: FileView = { path, state: state?.kind ?? 'missing', lines: [], records: [], changes, last: { ...ref(last), change: last.files.find((f) => f.path === path)?.change } };
  if (state?.kind === 'unreadable') view.reason = state.reason;
  if (state?.kind !== 'present') return view;
  const byRecord = new Map<string, [number, number][]>();
  for (const run of state.runs) {
    if (run.intentId !== intentId) continue;
    appendRange(view.lines, run.start, run.end);
    let lines = byRecord.get(run.recordId);
    if (!lines) byRecord.set(run.recordId, (lines = []));
    appendRange(lines, run.start, run.end);
  }
  view.records = [...byRecord].map(([id, lines]) => ({ id, lines })).sort((a, b) => a.lines[0][0] - b.lines[0][0] || compare(a.id, b.id));
  return view;
}

/** Runs arrive in line order; adjacent ones merge. */
function appendRange(ranges: [number, number][], start: number, end: number): void {
  const last = ranges[ranges.length - 1];
  if (last && last[1] + 1 >= start) last[1] = Math.max(last[1], end);
  else ranges.push([start, end]);
}

function ref(change: MappedChange): ChangeRef {
  return { id: change.id, timestamp: change.timestamp, agent: change.agent };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
