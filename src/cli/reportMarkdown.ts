import type { BranchReport, IntentReport, LineSpan } from '../core/trace/branchReport';

/** A refused command or a message is quoted up to this long: the report is read in seconds, the log holds the rest. */
const QUOTE_LIMIT = 120;

/** The report as markdown for a pull request: the summary line first, then one section per intent. */
export function reportMarkdown(report: BranchReport): string {
  const out: string[] = [`## Agent changes since ${text(report.base.said)}`, '', `**${summaryLine(report)}**`, ''];
  for (const log of report.dropped) out.push(`> **Warning:** \`${log}\` lost records the base held: run \`governor check --base\` to see which.`, '');
  if (report.scopeUnchecked) out.push(`> Out-of-scope changes not checked: ${text(report.scopeUnchecked)}.`, '');
  if (report.newSigners.length) {
    out.push(`**New signers** (a \`.pub\` this branch adds; confirm each is that person's key): ${report.newSigners.map(code).join(', ')}`, '');
  }
  for (const intent of report.intents) out.push(...intentSection(intent));
  const base = report.baseRecords.map((b) => `${b.records} in \`${b.log}\``).join(', ');
  const extra = [report.notes ? `${report.notes} writer note(s)` : '', report.unreadable ? `${report.unreadable} unreadable line(s) (\`governor check\` names them)` : ''].filter(Boolean);
  out.push(`<sub>Only records this branch added are listed; the base's (${base}) were reviewed with it.${extra.length ? ` Also added: ${extra.join(', ')}.` : ''}</sub>`, '');
  return `${out.join('\n')}`;
}

/** `3 changes by 2 agents across 1 intent · 1 refusal · 0 approvals · 1 command run · 1 out of scope · new signer: bob` */
export function summaryLine(report: BranchReport): string {
  const s = report.summary;
  const parts = [
    `${count(s.changes, 'change')} by ${count(s.agents, 'agent')} across ${count(s.intents, 'intent')}`,
    count(s.refusals, 'refusal'),
    count(s.approvals, 'approval'),
    ...(s.commands ? [`${count(s.commands, 'command')} run`] : []),
    ...(s.outOfScope ? [`${s.outOfScope} out of scope`] : []),
    s.newSigners ? `new signer${s.newSigners === 1 ? '' : 's'}: ${report.newSigners.join(', ')}` : 'no new signers',
  ];
  return parts.join(' · ');
}

function intentSection(intent: IntentReport): string[] {
  const title = intent.intent === null ? 'No intent bound' : `Intent ${code(intent.intent)}`;
  const agents = intent.agents.map((a) => `${text(a.name)}${a.models.length ? ` (${a.models.map(text).join(', ')})` : ''}`).join(', ');
  const out = [`### ${title}: ${count(intent.changes, 'change')}${agents ? ` by ${agents}` : ''}`, ''];
  if (intent.outOfScope.length) {
    out.push('**Out of scope:**');
    for (const f of intent.outOfScope) out.push(`- ${code(f.path)} is outside ${f.ownedScope.length ? f.ownedScope.map(code).join(', ') : 'an empty scope'} (trace line ${f.traceLine})`);
    out.push('');
  }
  if (intent.files.length) {
    out.push('| File | Lines | Change | Agent |', '|---|---|---|---|');
    for (const f of intent.files) out.push(`| ${code(f.path)} | ${spans(f.lines) || '-'} | ${[...new Set(f.changes)].join(', ')} | ${f.agents.map(text).join(', ')} |`);
    out.push('');
  }
  if (intent.approvals.length) {
    out.push('**Approved:**');
    for (const a of intent.approvals) out.push(`- ${text(a.approver)} approved ${code(a.tool)} on ${a.paths.map(code).join(', ') || 'no files'}${a.standing ? ' (standing approval for the session)' : ''}`);
    out.push('');
  }
  if (intent.refusals.length) {
    out.push('**Refused:**');
    for (const r of intent.refusals) {
      const who = r.decision === 'reject' ? `rejected${r.approver ? ` by ${text(r.approver)}` : ''}` : r.decision === 'deny' ? 'refused' : 'failed';
      const asked = r.command !== undefined ? code(`$ ${quote(r.command)}`) : r.paths.map(code).join(', ') || 'nothing named';
      out.push(`- ${who} ${code(r.code)}: ${text(r.agent)} asked ${code(r.tool)} for ${asked}`);
    }
    out.push('');
  }
  const ran = intent.commands.filter((c) => c.status === 'ran');
  if (ran.length) {
    out.push('**Commands run:**');
    for (const c of ran) out.push(`- ${text(c.agent)} ran ${code(c.tool)}, changing ${c.files.map(code).join(', ') || 'no files'}`);
    out.push('');
  }
  return out;
}

function spans(lines: readonly LineSpan[]): string {
  return lines.map((l) => (l.start === l.end ? `${l.start}` : `${l.start}-${l.end}`)).join(', ');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function quote(value: string): string {
  const flat = value.replace(/\s+/g, ' ');
  return flat.length > QUOTE_LIMIT ? `${flat.slice(0, QUOTE_LIMIT)}…` : flat;
}

/** Inline code that a backtick, a pipe or a newline in a recorded name cannot break out of. */
function code(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ').replace(/\|/g, '\\|');
  const fence = flat.includes('`') ? '``' : '`';
  return `${fence}${fence.length > 1 ? ' ' : ''}${flat}${fence.length > 1 ? ' ' : ''}${fence}`;
}

/** Plain text from a record: markdown and HTML characters escaped, so a name cannot format or link the report. */
function text(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').replace(/[\\`*_[\]<>|#!]/g, (c) => `\\${c}`);
}
