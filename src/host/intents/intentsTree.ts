import * as vscode from 'vscode';
import type { IntentSource, IntentsSnapshot } from '../../core/intents/intent';
import type { SessionRegistry } from '../../core/sessions/sessionRegistry';
import type { InspectorModel } from '../inspector/inspectorModel';

export const INTENTS_VIEW_ID = 'intentGovernor.intents';
/** `missing | empty | present | invalid`: which welcome content the Intents view shows (package.json viewsWelcome). */
const FILE_CONTEXT_KEY = 'intentGovernor.intentsFile';

/** One intent as the Intents view shows it; also what the extension API's `intentsView()` returns. */
export interface IntentRow {
  id: string;
  name: string;
  status: string;
  /** The human's intent (Select for Me / Select Active Intent). */
  selected: boolean;
  scope: string[];
  /** Trace records (changes) and governance records (refusals, rejections, errors) naming this intent. */
  changes: number;
  refusals: number;
  /** ISO time of the newest record naming it. */
  lastActivity?: string;
  /** The text beside the name: `id · STATUS · yours · 2 changes · 1 refusal`. */
  description: string;
}

export type IntentsNode =
  | { kind: 'intent'; row: IntentRow }
  | { kind: 'scope'; intentId: string; glob?: string }
  | { kind: 'activity'; row: IntentRow }
  | { kind: 'problem'; message: string };

const STATUS_ICONS: Record<string, string> = {
  IN_PROGRESS: 'play-circle',
  PLANNED: 'circle-large-outline',
  BLOCKED: 'debug-pause',
  DONE: 'pass',
  ABANDONED: 'circle-slash',
};

/**
 * The Intents view: every intent of the plan with its status, owned scope and what the trace holds for it.
 * Redraws when the plan or the human's intent changes (IntentsDisplay) and when records are indexed
 * (InspectorModel, whose index the inspector shares, so the logs are read once).
 */
export class IntentsTree implements vscode.TreeDataProvider<IntentsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private waitingForIndex = false;
  private roots: IntentsNode[] = [];

  constructor(
    private readonly intents: IntentSource,
    private readonly sessions: SessionRegistry,
    private readonly model: InspectorModel,
    onPlanOrSelection: vscode.Event<void>,
  ) {
    this.disposables.push(
      onPlanOrSelection(() => this.refresh()),
      model.onDidChange(() => this.refresh()),
    );
  }

  refresh(): void {
    this.changed.fire();
  }

  /** What the view shows now, as data: the rows of the intents, or [] for a missing, empty or invalid file. */
  async rows(): Promise<IntentRow[]> {
    const snapshot = await this.intents.load();
    void vscode.commands.executeCommand('setContext', FILE_CONTEXT_KEY, fileState(snapshot));
    if (!snapshot.valid) return [];
    const { index, partial } = this.model.current();
    if (partial && !this.waitingForIndex) {
      // The counts come from the newest records until the whole trace is indexed; redraw once it is.
      this.waitingForIndex = true;
      void this.model.ready().then(() => this.refresh());
    }
    const selected = this.sessions.getDefaultIntent();
    const summaries = new Map(index.intentSummaries(snapshot.intents).map((s) => [s.id, s]));
    return snapshot.intents.map((intent) => {
      const summary = summaries.get(intent.id);
      const row = {
        id: intent.id,
        name: intent.name,
        status: intent.status,
        selected: intent.id === selected,
        scope: intent.owned_scope,
        changes: summary?.changes ?? 0,
        refusals: summary?.governanceEvents ?? 0,
        lastActivity: summary?.lastActivity,
      };
      return { ...row, description: describe(row) };
    });
  }

  async getChildren(node?: IntentsNode): Promise<IntentsNode[]> {
    if (!node) {
      const snapshot = await this.intents.load();
      if (!snapshot.valid) {
        void vscode.commands.executeCommand('setContext', FILE_CONTEXT_KEY, 'invalid');
        const first = snapshot.problems[0];
        this.roots = [{ kind: 'problem', message: first ? `line ${first.line}: ${first.message}` : 'the intents file cannot be read' }];
        return this.roots;
      }
      this.roots = (await this.rows()).map((row) => ({ kind: 'intent', row }));
      return this.roots;
    }
    if (node.kind !== 'intent') return [];
    const scope: IntentsNode[] = node.row.scope.length
      ? node.row.scope.map((glob) => ({ kind: 'scope', intentId: node.row.id, glob }))
      : [{ kind: 'scope', intentId: node.row.id }];
    return [...scope, { kind: 'activity', row: node.row }];
  }

  /** The intent node with this id as last drawn (for reveal after New Intent…). */
  nodeFor(intentId: string): IntentsNode | undefined {
    return this.roots.find((n) => n.kind === 'intent' && n.row.id === intentId);
  }

  getParent(node: IntentsNode): IntentsNode | undefined {
    if (node.kind === 'scope') return this.nodeFor(node.intentId);
    if (node.kind === 'activity') return this.nodeFor(node.row.id);
    return undefined;
  }

  getTreeItem(node: IntentsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'intent':
        return intentItem(node.row);
      case 'scope': {
        const item = new vscode.TreeItem(node.glob ?? 'owns no files yet', vscode.TreeItemCollapsibleState.None);
        item.id = `scope:${node.intentId}:${node.glob ?? ''}`;
        item.iconPath = new vscode.ThemeIcon(node.glob ? (node.glob.includes('*') ? 'folder' : 'file') : 'circle-slash');
        item.tooltip = node.glob ? `Agents working under ${node.intentId} may write files matching ${node.glob}` : 'Edit Scope… adds the globs this intent may write';
        item.contextValue = 'intentScope';
        return item;
      }
      case 'activity': {
        const { row } = node;
        const label = row.lastActivity ? `last activity ${relativeTime(row.lastActivity)}` : 'no activity yet';
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
        item.id = `activity:${row.id}`;
        item.description = `${plural(row.changes, 'change')} · ${plural(row.refusals, 'refusal')}`;
        item.iconPath = new vscode.ThemeIcon('history');
        item.tooltip = row.lastActivity ? `Newest record: ${row.lastActivity}` : 'No record in the trace or the governance log names this intent yet';
        item.command = { command: 'intentGovernor.showIntentInInspector', title: 'Show in Trace Inspector', arguments: [row.id] };
        return item;
      }
      case 'problem': {
        const item = new vscode.TreeItem('The intents file has problems', vscode.TreeItemCollapsibleState.None);
        item.description = node.message;
        item.tooltip = `${node.message}\n\nGovernance fails closed: agents may change nothing until the file is fixed.`;
        item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
        item.command = { command: 'intentGovernor.openIntentsFile', title: 'Open Intents File' };
        return item;
      }
    }
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function intentItem(row: IntentRow): vscode.TreeItem {
  const item = new vscode.TreeItem(row.name, row.selected ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `intent:${row.id}`;
  item.description = row.description;
  item.iconPath = row.selected
    ? new vscode.ThemeIcon('target', new vscode.ThemeColor('charts.green'))
    : new vscode.ThemeIcon(STATUS_ICONS[row.status] ?? 'circle-large-outline');
  // Menus key on the status: Select for Me is offered on IN_PROGRESS intents only.
  item.contextValue = `intent.${row.status}`;
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`**${escape(row.name)}** \`${escape(row.id)}\`\n\n`);
  tooltip.appendMarkdown(`Status: ${row.status}${row.selected ? ' · selected for you: agents without an intent of their own work under it' : ''}\n\n`);
  tooltip.appendMarkdown(`Owned scope: ${row.scope.length ? row.scope.map((g) => `\`${escape(g)}\``).join(', ') : 'none'}\n\n`);
  tooltip.appendMarkdown(`${plural(row.changes, 'change')}, ${plural(row.refusals, 'refusal')}${row.lastActivity ? `, last ${row.lastActivity}` : ''}`);
  item.tooltip = tooltip;
  return item;
}

function describe(row: Omit<IntentRow, 'description'>): string {
  const parts = [row.id, row.status];
  if (row.selected) parts.push('yours');
  parts.push(plural(row.changes, 'change'), plural(row.refusals, 'refusal'));
  return parts.join(' · ');
}

function fileState(snapshot: IntentsSnapshot): string {
  if (!snapshot.valid) return 'invalid';
  if (!snapshot.exists) return 'missing';
  return snapshot.intents.length === 0 ? 'empty' : 'present';
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** `5 minutes ago`, `yesterday`; `just now` under a minute. */
function relativeTime(iso: string, now = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const elapsed = now - at;
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, ms] of UNITS) if (Math.abs(elapsed) >= ms) return format.format(-Math.round(elapsed / ms), unit);
  return 'just now';
}
