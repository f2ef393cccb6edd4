import type { BranchRecords } from './branchRecords';
import { modelsOf } from './traceReader';
import type { AgentTraceRecord, GovernanceRecord } from './traceRecord';

/** A run of changed lines, 1-based and inclusive, as the records recorded them. */
export interface LineSpan {
  start: number;
  end: number;
}

export interface ReportFile {
  path: string;
  /** Merged over every change the branch made to the file; line numbers are each change's own (later ones may move lines). */
  lines: LineSpan[];
  /** created | modified | deleted, in the order the changes came. */
  changes: string[];
  agents: string[];
  traceLines: number[];
}

export interface ReportAgent {
  name: string;
  models: string[];
  changes: number;
}

/** A change a person approved: asked this time, or allowed by a standing approval they granted. */
export interface ReportApproval {
  approver: string;
  tool: string;
  paths: string[];
  traceLine: number;
  standing: boolean;
}

/** A call refused by policy (deny), rejected by a person (reject) or failed (error). */
export interface ReportRefusal {
  decision: string;
  code: string;
  tool: string;
  agent: string;
  paths: string[];
  command?: string;
  approver?: string;
  governanceLine: number;
}

/** A command an agent ran (its recorded changes) or was refused; a command's text is recorded only when refused. */
export interface ReportCommand {
  status: 'ran' | 'refused';
  tool: string;
  agent: string;
  files: string[];
  command?: string;
  /** The trace's line for one that ran, the governance log's for one refused. */
  line: number;
  timestamp: string;
}

/** A traced change outside its intent's owned_scope (the shape of policy/scopeAudit's violations). */
export interface OutOfScopeFinding {
  traceLine: number;
  intentId: string;
  path: string;
  ownedScope: string[];
}

export interface IntentReport {
  /** null: changes recorded with no intent bound (an agent's native tool outside a session). */
  intent: string | null;
  changes: number;
  files: ReportFile[];
  agents: ReportAgent[];
  approvals: ReportApproval[];
  refusals: ReportRefusal[];
  commands: ReportCommand[];
  outOfScope: OutOfScopeFinding[];
}

export interface BranchReport {
  base: { commit: string; said: string };
  summary: { changes: number; agents: number; intents: number; refusals: number; approvals: number; /** Commands that ran (refused ones are refusals). */ commands: number; outOfScope: number; newSigners: number };
  intents: IntentReport[];
  newSigners: string[];
  /** Records the base's logs held: reviewed with the base, not listed. */
  baseRecords: { log: string; records: number }[];
  /** Logs that lost records the base held (`governor check --base` names them). */
  dropped: string[];
  /** Why out-of-scope findings could not be computed (an invalid intents file), when they could not. */
  scopeUnchecked?: string;
  /** The writers' own notes the branch added (recovery, discontinuity, acceptance), and lines that are not records. */
  notes: number;
  unreadable: number;
}

export interface ReportInputs {
  base: { commit: string; said: string };
  records: BranchRecords;
  baseRecords: { log: string; records: number }[];
  dropped: string[];
  outOfScope: OutOfScopeFinding[] | { unchecked: string };
  newSigners: string[];
}

const REFUSED: ReadonlySet<string> = new Set(['deny', 'reject', 'error']);
const NO_INTENT = '\0none';

/** Records in, report out: grouped by intent, in the order intents first appear on the branch. */
export function buildBranchReport(inputs: ReportInputs): BranchReport {
  const groups = new Map<string, Group>();
  const group = (intent: unknown) => {
    const key = typeof intent === 'string' ? intent : NO_INTENT;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = new Group(key === NO_INTENT ? null : key)));
    return g;
  };
  let notes = 0;
  for (const { line, record } of inputs.records.trace) {
    if (record.metadata.kind !== 'mutation') notes += 1;
    else group(record.metadata.intent_id).addChange(line, record);
  }
  for (const { line, record } of inputs.records.governance) {
    if (record.kind !== 'governance') notes += 1;
    else if (REFUSED.has(String(record.decision))) group(record.intent_id).addRefusal(line, record);
  }
  const outOfScope = Array.isArray(inputs.outOfScope) ? inputs.outOfScope : [];
  for (const finding of outOfScope) group(finding.intentId).outOfScope.push(finding);
  const intents = [...groups.values()].map((g) => g.finish());
  const agents = new Set(intents.flatMap((i) => [...i.agents.map((a) => a.name), ...i.refusals.map((r) => r.agent)]));
  const sum = (pick: (i: IntentReport) => number) => intents.reduce((n, i) => n + pick(i), 0);
  return {
    base: inputs.base,
    summary: {
      changes: sum((i) => i.changes),
      agents: agents.size,
      intents: intents.filter((i) => i.intent !== null).length,
      refusals: sum((i) => i.refusals.length),
      approvals: sum((i) => i.approvals.length),
      commands: sum((i) => i.commands.filter((c) => c.status === 'ran').length),
      outOfScope: outOfScope.length,
      newSigners: inputs.newSigners.length,
    },
    intents,
    newSigners: [...inputs.newSigners],
    baseRecords: inputs.baseRecords,
    dropped: inputs.dropped,
    ...(Array.isArray(inputs.outOfScope) ? {} : { scopeUnchecked: inputs.outOfScope.unchecked }),
    notes,
    unreadable: inputs.records.unreadable,
  };
}

/** One intent's facts while the records are read. */
class Group {
  private readonly files = new Map<string, ReportFile>();
  private readonly agents = new Map<string, { models: Set<string>; changes: number }>();
  private changes = 0;
  private readonly approvals: ReportApproval[] = [];
  private readonly refusals: ReportRefusal[] = [];
  private readonly commands: ReportCommand[] = [];
  readonly outOfScope: OutOfScopeFinding[] = [];

  constructor(private readonly intent: string | null) {}

  addChange(line: number, record: AgentTraceRecord): void {
    const meta = record.metadata;
    const agent = typeof meta.agent === 'string' ? meta.agent : 'unknown agent';
    const tool = typeof meta.tool_name === 'string' ? meta.tool_name : 'unknown tool';
    this.changes += 1;
    const who = this.agents.get(agent) ?? { models: new Set<string>(), changes: 0 };
    who.changes += 1;
    for (const model of modelsOf(record)) who.models.add(model);
    this.agents.set(agent, who);
    const kinds = new Map((Array.isArray(meta.files) ? meta.files : []).map((f) => [f.path, f.change]));
    const paths: string[] = [];
    for (const file of record.files ?? []) {
      if (typeof file?.path !== 'string') continue;
      paths.push(file.path);
      const entry = this.files.get(file.path) ?? { path: file.path, lines: [], changes: [], agents: [], traceLines: [] };
      for (const conversation of file.conversations ?? []) {
        for (const r of conversation.ranges ?? []) {
          if (Number.isInteger(r.start_line) && Number.isInteger(r.end_line)) entry.lines.push({ start: r.start_line, end: r.end_line });
        }
      }
      entry.changes.push(kinds.get(file.path) ?? 'modified');
      if (!entry.agents.includes(agent)) entry.agents.push(agent);
      entry.traceLines.push(line);
      this.files.set(file.path, entry);
    }
    const approver = meta.approval?.standing?.granted_by ?? (meta.decision === 'approved' ? meta.approver ?? meta.approval?.approver : undefined);
    if (approver) this.approvals.push({ approver, tool, paths, traceLine: line, standing: meta.approval?.standing !== undefined });
    if ((meta.operation ?? meta.mutation_class) === 'command') this.commands.push({ status: 'ran', tool, agent, files: paths, line, timestamp: record.timestamp });
  }

  addRefusal(line: number, record: GovernanceRecord): void {
    const agent = record.agent?.name ?? 'unknown agent';
    const tool = record.tool_name ?? 'unknown tool';
    const paths = Array.isArray(record.paths) ? record.paths.filter((p) => typeof p === 'string') : [];
    const command = typeof record.command === 'string' ? record.command : undefined;
    this.refusals.push({
      decision: String(record.decision),
      code: record.code ?? '',
      tool,
      agent,
      paths,
      ...(command !== undefined ? { command } : {}),
      // 'none': a headless governor had nobody to ask; the report names people only.
      ...(record.approver && record.approver !== 'none' ? { approver: record.approver } : {}),
      governanceLine: line,
    });
    if (command !== undefined) this.commands.push({ status: 'refused', tool, agent, files: paths, command, line, timestamp: record.timestamp });
  }

  finish(): IntentReport {
    return {
      intent: this.intent,
      changes: this.changes,
      files: [...this.files.values()].map((f) => ({ ...f, lines: mergeSpans(f.lines) })).sort((a, b) => a.path.localeCompare(b.path)),
      agents: [...this.agents].map(([name, a]) => ({ name, models: [...a.models].sort(), changes: a.changes })),
      approvals: this.approvals,
      refusals: this.refusals,
      // Two logs were read one after the other: their times put the commands back in the order they came.
      commands: [...this.commands].sort((a, b) => String(a.timestamp).localeCompare(String(b.timestamp))),
      outOfScope: this.outOfScope,
    };
  }
}

/** Overlapping or touching spans become one, sorted: a reviewer reads "1-12", not each change's piece of it. */
export function mergeSpans(spans: readonly LineSpan[]): LineSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: LineSpan[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end + 1) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
