import type { HookApprovals } from './hookApprovals';
import { notFiredText } from './hookEventDoors';
import type { HookEventName } from './hookEvents';
import { loadHookLayers } from './hookLayers';
import type { HookRunLog, HookRunRecord } from './hookRunLog';
import { isOwnLayer, type HookAction, type HookLayer, type HookSpec } from './hookSpec';

/**
 * What `governor hooks list`, `governor hooks trust` and *Show Hooks* show: one row per declared hook, with
 * whether it may run here and how its last run ended. Built from the loaded layers, so every view agrees.
 */

/** `users_own`: the person's own file, runs without approval. The rest came with the repository. */
export type HookTrustState = 'approved' | 'not_approved' | 'users_own' | 'workspace_not_trusted';

export const TRUST_STATE_TEXT: Record<HookTrustState, string> = {
  approved: 'approved',
  not_approved: 'not approved: run governor hooks trust',
  users_own: "user's own",
  workspace_not_trusted: 'workspace not trusted',
};

/** The table's cell: short, so a row fits 100 columns; what to do about it is said once below the table. */
const TRUST_STATE_CELL: Record<HookTrustState, string> = { ...TRUST_STATE_TEXT, not_approved: 'not approved' };

const NOT_APPROVED_ADVICE = 'Hooks not approved do not run: run `governor hooks trust` in a terminal to read and approve them.';
const UNTRUSTED_ADVICE = 'The workspace is not trusted: only your own hooks run until you trust it.';

/** What Claude Code's own settings files' hooks show: the governor runs them for every other agent. */
export const NOT_FOR_CLAUDE_CODE = 'not run for Claude Code (it runs them itself)';

export interface HookListingRow {
  id: string;
  name: string;
  event: HookEventName;
  /** As written; '' means every tool. */
  matcher: string;
  if?: string;
  /** `args` is a command in exec form (no shell); `agent` runs as a prompt here; `mcp_tool` never runs here. */
  type: 'command' | 'args' | 'http' | 'prompt' | 'agent' | 'mcp_tool';
  flags: ('async' | 'asyncRewake' | 'once')[];
  source: string;
  layer: HookLayer;
  state: HookTrustState;
  stateText: string;
  /** Claude Code's settings files: run for every agent but Claude Code. */
  notRunForClaudeCode: boolean;
  /** `not fired by <doors>` when some of the governor's doors never fire this event (FileChanged: all of them). */
  notFiredBy?: string;
  /** The exact command, argv, URL or prompt a person approves. */
  action: string;
  approvalHash: string;
  lastRun?: HookRunRecord;
  lastRunText: string;
}

export interface HookProblem {
  file: string;
  message: string;
}

/** The loaded layers as the listing needs them (what loadHookLayers returns). */
export interface DeclaredHooks {
  hooks: readonly HookSpec[];
  problems: readonly HookProblem[];
  notes: readonly string[];
  warnings?: readonly string[];
}

export interface HookListing {
  hooks: HookListingRow[];
  problems: HookProblem[];
  /** Entries skipped because they are wrong (an unknown event, a broken observation hook). */
  warnings: string[];
  notes: string[];
}

export interface HookListingPorts {
  approvals: HookApprovals;
  runLog: HookRunLog;
  /** Whether the workspace is trusted (headless: always). Hooks from the repository never run in an untrusted one. */
  trusted: boolean;
}

/** The rows for one workspace: each hook's trust state and its last run from the run log. */
export async function hookListing(root: string, declared: DeclaredHooks, ports: HookListingPorts): Promise<HookListing> {
  const runs = await ports.runLog.read(root);
  const hooks: HookListingRow[] = [];
  for (const spec of declared.hooks) {
    const state = await trustState(root, spec, ports);
    const recorded = Object.hasOwn(runs, spec.identity) ? runs[spec.identity] : undefined;
    // "skipped: not approved" from before an approval says nothing true any more.
    const lastRun = recorded && state === 'approved' && recorded.result.startsWith('skipped: not approved') ? undefined : recorded;
    const notFiredBy = notFiredText(spec.event);
    hooks.push({
      id: spec.id,
      name: spec.name,
      event: spec.event,
      matcher: spec.matcher,
      ...(spec.if !== undefined ? { if: spec.if } : {}),
      type: listedType(spec.action),
      flags: (['async', 'asyncRewake', 'once'] as const).filter((flag) => spec[flag]),
      source: spec.source.file,
      layer: spec.source.layer,
      state,
      stateText: TRUST_STATE_TEXT[state],
      notRunForClaudeCode: spec.source.layer === 'claude' || spec.source.layer === 'claude-user',
      ...(notFiredBy ? { notFiredBy } : {}),
      action: hookActionText(spec.action),
      approvalHash: spec.approvalHash,
      ...(lastRun ? { lastRun } : {}),
      lastRunText: lastRun ? lastRunText(lastRun) : recorded ? 'approved since; not run yet' : 'never run',
    });
  }
  return { hooks, problems: [...declared.problems], warnings: [...(declared.warnings ?? [])], notes: [...declared.notes] };
}

/**
 * Listings are not a door: every layer is shown, Claude Code's settings files included (marked as not run for
 * Claude Code, which runs them itself).
 */
export const LISTING_DOOR = 'listing';

/** Loads every layer for `root` (the user's file from `home`) and lists it. */
export function listHooks(root: string, options: HookListingPorts & { home: string }): Promise<HookListing> {
  return hookListing(root, loadHookLayers(root, { home: options.home, door: LISTING_DOOR }), options);
}

async function trustState(root: string, spec: HookSpec, ports: HookListingPorts): Promise<HookTrustState> {
  if (isOwnLayer(spec.source.layer)) return 'users_own';
  if (!ports.trusted) return 'workspace_not_trusted';
  return (await ports.approvals.isApproved(root, spec.approvalHash)) ? 'approved' : 'not_approved';
}

function listedType(action: HookAction): HookListingRow['type'] {
  if (action.type === 'command') return 'args' in action ? 'args' : 'command';
  if (action.type === 'prompt') return action.agent ? 'agent' : 'prompt';
  return action.type;
}

/**
 * The text a person approves: the shell command, the argv (JSON), `POST <url>`, `prompt: <text>`, `agent (runs as
 * a prompt here): <text>`, or `mcp_tool <server>/<tool> <input>`.
 */
export function hookActionText(action: HookAction): string {
  if (action.type === 'command') return 'command' in action ? action.command : JSON.stringify(action.args);
  if (action.type === 'http') return `POST ${action.url}`;
  if (action.type === 'mcp_tool') return `mcp_tool ${action.server}/${action.tool} ${JSON.stringify(action.input)}`;
  return `${action.agent ? 'agent (runs as a prompt here)' : 'prompt'}: ${action.prompt}`;
}

function lastRunText(run: HookRunRecord): string {
  return run.durationMs > 0 ? `${run.result}, ${Math.round(run.durationMs)} ms` : run.result;
}

/**
 * Control characters and bidirectional overrides shown as escapes: a hooks file could otherwise hide the
 * command a person is approving behind terminal escape sequences, carriage returns or reordered text.
 */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** One line: newlines and tabs escaped too. */
function cell(text: string): string {
  return visible(text).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

export function matcherText(row: Pick<HookListingRow, 'matcher' | 'if'>): string {
  const matcher = row.matcher === '' ? '*' : row.matcher;
  return row.if === undefined ? matcher : `${matcher} if ${row.if}`;
}

export function typeText(row: Pick<HookListingRow, 'type' | 'flags'>): string {
  return [row.type, ...row.flags].join(' ');
}

const COLUMNS = ['EVENT', 'MATCHER', 'TYPE', 'STATE', 'LAST RUN'] as const;
const INDENT = '  ';
const GAP = '  ';
const MIN_SHRUNK = 8;
/** Matcher, last run, type: cut with `…` when the table is too wide. */
const SHRINKABLE = [1, 4, 2];

/**
 * The listing as a plain text table for a terminal or a read-only document: rows grouped under their source
 * file, columns sized to fit `width` (the matcher, the last run and the type are cut with `…`, the event and
 * the state never are), what to do about unapproved hooks, problems and notes below.
 */
export function hookListingText(listing: HookListing, width = 100): string {
  const lines: string[] = [];
  if (listing.hooks.length === 0) {
    lines.push('No hooks are declared for this workspace.');
  } else {
    const cells = listing.hooks.map((row) => [row.event, cell(matcherText(row)), typeText(row), TRUST_STATE_CELL[row.state], cell(row.lastRunText)]);
    const widths = fitWidths([[...COLUMNS], ...cells], width - INDENT.length);
    const format = (values: readonly string[]) => INDENT + values.map((v, i) => pad(clip(v, widths[i]), widths[i])).join(GAP).trimEnd();
    lines.push(format(COLUMNS));
    let source: string | undefined;
    listing.hooks.forEach((row, index) => {
      if (row.source !== source) {
        source = row.source;
        lines.push(`${cell(row.source)}${sourceNote(row)}`);
      }
      lines.push(format(cells[index]));
    });
    if (listing.hooks.some((row) => row.state === 'not_approved')) lines.push('', NOT_APPROVED_ADVICE);
    if (listing.hooks.some((row) => row.state === 'workspace_not_trusted')) lines.push('', UNTRUSTED_ADVICE);
  }
  if (listing.problems.length) {
    lines.push('', "Problems (until they are fixed, agents' calls that hooks decide are refused):");
    for (const p of listing.problems) lines.push(`${INDENT}${cell(p.file)}: ${cell(p.message)}`);
  }
  if (listing.warnings.length) {
    lines.push('', 'Warnings (these entries are skipped; the rest of each file holds):');
    for (const warning of listing.warnings) lines.push(`${INDENT}${cell(warning)}`);
  }
  const notFired = [...new Map(listing.hooks.filter((row) => row.notFiredBy).map((row) => [row.event, row.notFiredBy])).entries()];
  if (notFired.length) {
    lines.push('', 'Events not every door fires (their hooks run only where the event happens):');
    for (const [event, text] of notFired) lines.push(`${INDENT}${event}: ${text ?? ''}`);
  }
  if (listing.notes.length) {
    lines.push('', 'Notes:');
    for (const note of listing.notes) lines.push(`${INDENT}${cell(note)}`);
  }
  return `${lines.join('\n')}\n`;
}

function sourceNote(row: HookListingRow): string {
  if (row.layer === 'managed') return ': managed by the administrator, runs always; no other file can weaken it';
  if (row.notRunForClaudeCode) return `: ${isOwnLayer(row.layer) ? 'yours, runs without approval; ' : ''}${NOT_FOR_CLAUDE_CODE}`;
  if (isOwnLayer(row.layer)) return ': yours, runs without approval';
  return '';
}

/** Natural widths; while too wide, the widest of matcher, last run and type loses a column (event and state never do). */
function fitWidths(rows: readonly (readonly string[])[], available: number): number[] {
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  let over = widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1) - available;
  while (over > 0) {
    const column = SHRINKABLE.filter((c) => widths[c] > MIN_SHRUNK).sort((a, b) => widths[b] - widths[a])[0];
    if (column === undefined) break;
    widths[column]--;
    over--;
  }
  return widths;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - [...text].length));
}

function clip(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}
