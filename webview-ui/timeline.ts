import { decisionLook } from '../src/shared/decisionTone';
import type { BranchNote, InspectorFilter, InspectorRow } from '../src/shared/inspectorProtocol';
import { decisionIcon } from './decisionIcon';
import { h, shortTime } from './dom';
import { vscode } from './vscodeApi';

/** Change classes in the row, short enough for the decision column; the detail pane names them in full. */
const CLASS_LABEL: Record<string, string> = { AST_REFACTOR: 'refactor', INTENT_EVOLUTION: 'evolution' };

const ROW_HEIGHT = 24;
/** The column header stays on top of the list (sticky), one row tall: rows scroll in below it. */
const HEAD_HEIGHT = ROW_HEIGHT;
/** Decision and code first, so a narrow panel still shows what was decided; the file column gives way first. */
const COLUMNS = [['decision', 'Decision'], ['code', 'Code / class'], ['time', 'Time'], ['intent', 'Intent'], ['agent', 'Agent'], ['model', 'Model'], ['files', 'Files']] as const;
const PAGE = 100;
/** Rows rendered above and below the viewport so a fast scroll does not show blanks. */
const OVERSCAN = 10;

/**
 * The virtualized timeline: a spacer as tall as all matching rows, and only the rows in view (plus a few)
 * in the DOM, fetched from the host a page at a time. A filter change bumps `seq`, and pages answering an
 * older seq are dropped. Keyboard: the list is one tab stop; arrows, Page Up/Down, Home/End move the
 * selection, Enter opens the record.
 */
export class Timeline {
  readonly element: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly count: HTMLElement;
  private filter: InspectorFilter = {};
  private seq = 0;
  private total = 0;
  private pages = new Map<number, InspectorRow[]>();
  private requested = new Set<number>();
  private selected = -1;
  /** The selected record; its index moves when new records arrive above it, so rendering follows the key. */
  private selectedKey: number | undefined;
  private filterStarted = 0;
  /** Set once rows were first drawn, and after each filter: what the benchmark reads. */
  onRendered: (timing: { firstRows?: number; filterMs?: number }) => void = () => undefined;
  private firstDrawn = false;
  private showingPartial = false;

  constructor(private readonly open: (key: number) => void) {
    this.count = h('div', { class: 'count', 'aria-live': 'polite' });
    this.spacer = h('div', { class: 'spacer' });
    const head = h('div', { class: 'head', role: 'row' }, ...COLUMNS.map(([name, label]) => h('span', { class: `cell ${name}`, role: 'columnheader' }, label)));
    const list = h('div', { class: 'list', tabindex: 0, role: 'grid', 'aria-label': 'Trace records, newest first' }, head, this.spacer);
    list.addEventListener('scroll', () => this.render());
    list.addEventListener('keydown', (event) => this.onKey(event));
    list.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('.row');
      if (!row) return;
      this.select(Number(row.dataset.index));
      this.open(Number(row.dataset.key));
    });
    this.element = h('section', { class: 'timeline' }, this.count, list);
    new ResizeObserver(() => this.render()).observe(list);
  }

  private get list(): HTMLElement {
    return this.spacer.parentElement as HTMLElement;
  }

  setFilter(filter: InspectorFilter): void {
    this.filter = filter;
    this.filterStarted = performance.now();
    this.reload();
  }

  /** New records arrived, or the filter changed: forget cached pages and ask again for what is in view. */
  reload(): void {
    this.seq += 1;
    this.pages = new Map();
    this.requested = new Set();
    this.request(0);
    this.render();
  }

  /** Whether the rows shown come from the newest records only (the host is still indexing). */
  get partial(): boolean {
    return this.showingPartial;
  }

  receive(seq: number, total: number, start: number, rows: InspectorRow[], partial: boolean, branch?: BranchNote): void {
    if (seq !== this.seq) return;
    this.total = total;
    this.showingPartial = partial;
    this.pages.set(Math.floor(start / PAGE), rows);
    this.spacer.style.height = `${total * ROW_HEIGHT}px`;
    const records = `${total.toLocaleString('en')} record${total === 1 ? '' : 's'}`;
    const since = branch === undefined ? '' : 'said' in branch ? ` added since ${branch.said}` : `: ${branch.problem}`;
    this.count.textContent = partial ? `Indexing the trace… the newest ${records} so far` : `${records}${since}`;
    if (this.selected >= total) this.selected = total - 1;
    this.render();
    const timing: { firstRows?: number; filterMs?: number } = {};
    if (!this.firstDrawn && rows.length) {
      this.firstDrawn = true;
      timing.firstRows = performance.now();
    }
    if (this.filterStarted) {
      timing.filterMs = performance.now() - this.filterStarted;
      this.filterStarted = 0;
    }
    this.onRendered(timing);
  }

  private request(page: number): void {
    if (this.requested.has(page)) return;
    this.requested.add(page);
    vscode.postMessage({ type: 'query', seq: this.seq, filter: this.filter, start: page * PAGE, count: PAGE });
  }

  private render(): void {
    const list = this.list;
    const first = Math.max(0, Math.floor(list.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.total, Math.ceil((list.scrollTop + list.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const rows: HTMLElement[] = [];
    for (let i = first; i < last; i += 1) {
      const page = this.pages.get(Math.floor(i / PAGE));
      if (!page) {
        this.request(Math.floor(i / PAGE));
        continue;
      }
      const row = page[i % PAGE];
      if (!row) continue;
      if (this.selectedKey === undefined && this.selected === i) this.selectedKey = row.key;
      if (row.key === this.selectedKey) this.selected = i;
      else if (this.selected === i) this.selected = -1;
      rows.push(this.rowElement(row, i));
    }
    this.spacer.replaceChildren(...rows);
    // Screen readers follow the selection while focus stays on the list (one tab stop for 100k rows).
    if (this.selectedKey !== undefined && this.selected >= first && this.selected < last) list.setAttribute('aria-activedescendant', `row-${this.selectedKey}`);
    else list.removeAttribute('aria-activedescendant');
  }

  private rowElement(row: InspectorRow, index: number): HTMLElement {
    const governance = row.source === 'governance';
    const look = decisionLook(row);
    const code = governance ? row.code : row.mutationClass ? (CLASS_LABEL[row.mutationClass] ?? row.mutationClass) : '';
    const files = row.files.join(' ');
    const el = h(
      'div',
      {
        class: `row ${governance ? 'governance' : 'mutation'} tone-${look.tone} decision-${row.decision || 'none'}${index === this.selected ? ' selected' : ''}`,
        role: 'row',
        id: `row-${row.key}`,
        'aria-selected': index === this.selected ? 'true' : 'false',
        'data-index': index,
        'data-key': row.key,
        'data-id': row.id,
        'data-intent': row.intent,
        'data-tone': look.tone,
      },
      h('span', { class: 'cell decision', role: 'gridcell' }, decisionIcon(look), h('span', { class: 'label' }, row.decision || row.kind)),
      h('span', { class: 'cell code', role: 'gridcell', title: code || undefined }, code),
      h('span', { class: 'cell time', role: 'gridcell' }, shortTime(row.timestamp)),
      h('span', { class: 'cell intent', role: 'gridcell', title: row.intent || undefined }, row.intent || `(${row.kind})`),
      h('span', { class: 'cell agent', role: 'gridcell' }, row.agent),
      h('span', { class: 'cell model', role: 'gridcell' }, row.model),
      h('span', { class: 'cell files', role: 'gridcell', title: files || undefined }, files),
    );
    el.style.top = `${index * ROW_HEIGHT}px`;
    return el;
  }

  private onKey(event: KeyboardEvent): void {
    const visible = Math.max(1, Math.floor((this.list.clientHeight - HEAD_HEIGHT) / ROW_HEIGHT));
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: visible, PageUp: -visible, Home: -Infinity, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      const next = Math.max(0, Math.min(this.total - 1, (this.selected < 0 ? -1 : this.selected) + moves[event.key]));
      this.select(Number.isFinite(next) ? next : 0);
    } else if (event.key === 'Enter' && this.selected >= 0) {
      const row = this.pages.get(Math.floor(this.selected / PAGE))?.[this.selected % PAGE];
      if (row) this.open(row.key);
    }
  }

  private select(index: number): void {
    this.selected = index;
    this.selectedKey = this.pages.get(Math.floor(index / PAGE))?.[index % PAGE]?.key;
    const list = this.list;
    const top = index * ROW_HEIGHT;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + ROW_HEIGHT + HEAD_HEIGHT > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW_HEIGHT + HEAD_HEIGHT - list.clientHeight;
    this.render();
  }
}
