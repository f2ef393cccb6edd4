// The trace inspector webview. Plain TypeScript DOM: the UI is a filter bar, one virtualized list, a detail
// pane and a table, and the hot path (scrolling 100k rows) is a dozen absolutely placed divs; a framework
// would add a bundle and a diffing layer without making that path any faster.
import type { ChainStatus, Facets, InspectorFilter, InspectorSummary, InspectorViewState } from '../src/shared/inspectorProtocol';
import { renderDetail } from './detail';
import { h } from './dom';
import { renderIntents } from './intentsView';
import { Timeline } from './timeline';
import { onHostMessage, vscode } from './vscodeApi';

const FILTER_DELAY_MS = 120;

const saved: InspectorViewState = vscode.getState() ?? { filter: {}, tab: 'timeline' };
let state: InspectorViewState = saved;
let summary: InspectorSummary | undefined;

const app = document.getElementById('app') as HTMLElement;
const chain = h('div', { class: 'chain', role: 'status', 'aria-label': 'Chain status' }, 'verifying…');
const tabs = h('div', { class: 'tabs', role: 'tablist' });
const filters = h('form', { class: 'filters', 'aria-label': 'Filters' });
const detailPane = h('aside', { class: 'detail-pane' }, h('p', { class: 'hint' }, 'Select a record (Enter or click) to see its files, ranges and hashes.'));
const timeline = new Timeline((key) => vscode.postMessage({ type: 'openRecord', key }));
const intentsPane = h('div', { class: 'intents-pane' });
// Shown while both logs are empty: a first-time user sees what fills this panel and how to get there.
const emptyHint = h(
  'p',
  { class: 'hint empty-trace', hidden: true },
  'No records yet. Pick an intent (Intent Governor: Select Active Intent) and connect an agent (Intent Governor: Connect an Agent…): ' +
    'every change it makes and every call refused shows up here.',
);
const timelinePane = h('div', { class: 'timeline-pane' }, filters, emptyHint, h('div', { class: 'split' }, timeline.element, detailPane));
app.append(h('header', {}, h('h1', {}, 'Trace Inspector'), chain), tabs, timelinePane, intentsPane);

// When this document started (epoch ms), so a benchmark can split the workbench's webview start-up from ours.
app.dataset.timeOrigin = String(Math.round(performance.timeOrigin));
timeline.onRendered = ({ firstRows, filterMs }) => {
  if (firstRows !== undefined) app.dataset.firstRowsMs = firstRows.toFixed(1);
  if (filterMs !== undefined) app.dataset.filterMs = filterMs.toFixed(1);
};

function save(): void {
  vscode.setState(state);
}

function showTab(tab: InspectorViewState['tab']): void {
  state = { ...state, tab };
  save();
  timelinePane.hidden = tab !== 'timeline';
  intentsPane.hidden = tab !== 'intents';
  for (const button of tabs.querySelectorAll<HTMLButtonElement>('button')) button.setAttribute('aria-selected', String(button.dataset.tab === tab));
}

for (const [tab, label] of [['timeline', 'Timeline'], ['intents', 'Intents']] as const) {
  const button = h('button', { type: 'button', role: 'tab', 'data-tab': tab }, label);
  button.addEventListener('click', () => showTab(tab));
  tabs.append(button);
}

function setFilter(filter: InspectorFilter): void {
  state = { ...state, filter };
  save();
  timeline.setFilter(filter);
}

/** The filter bar: drop-downs from the facets the host sent, text boxes for file and time. */
function renderFilters(facets: Facets): void {
  const current = state.filter;
  const select = (name: keyof InspectorFilter, label: string, values: string[]) => {
    const el = h('select', { name, 'aria-label': label }, h('option', { value: '' }, `${label}: all`));
    for (const v of values) el.append(h('option', { value: v, selected: current[name] === v }, v));
    return h('label', {}, el);
  };
  const text = (name: keyof InspectorFilter, label: string, placeholder: string) =>
    h('label', {}, h('input', { name, 'aria-label': label, placeholder, value: current[name] ?? '', type: 'text' }));
  filters.replaceChildren(
    select('intent', 'Intent', facets.intents),
    select('agent', 'Agent', facets.agents),
    select('model', 'Model', facets.models),
    select('decision', 'Decision', facets.decisions),
    select('mutationClass', 'Class', ['AST_REFACTOR', 'INTENT_EVOLUTION']),
    select('source', 'Log', ['trace', 'governance']),
    text('file', 'File', 'file or glob'),
    text('since', 'Since', 'since (ISO)'),
    text('until', 'Until', 'until (ISO)'),
    text('branchBase', 'Added since ref', 'added since ref (main)'),
  );
}

function readFilters(): InspectorFilter {
  const filter: Record<string, string> = {};
  for (const el of filters.querySelectorAll<HTMLInputElement | HTMLSelectElement>('select, input')) if (el.value) filter[el.name] = el.value;
  return filter as InspectorFilter;
}

let filterTimer: number | undefined;
filters.addEventListener('change', () => setFilter(readFilters()));
filters.addEventListener('input', (event) => {
  if ((event.target as HTMLElement).tagName !== 'INPUT') return;
  window.clearTimeout(filterTimer);
  filterTimer = window.setTimeout(() => setFilter(readFilters()), FILTER_DELAY_MS);
});
filters.addEventListener('submit', (event) => event.preventDefault());

function renderChain(statuses: ChainStatus[]): void {
  // The badge says the verdict; the full verify line (chains, anchor) is its tooltip.
  const short = (s: ChainStatus) => (s.status === 'tampered' ? `TAMPERED at line ${s.firstBadLine ?? '?'}` : s.text.replace(/,.*\)$/, ')'));
  chain.replaceChildren(...statuses.map((s) => h('span', { class: `badge chain-${s.status}`, title: s.text, 'data-log': s.log }, `${s.log.replace('.orchestration/', '')}: ${short(s)}`)));
}

function pickIntent(intent: string): void {
  setFilter({ ...state.filter, intent });
  if (summary) renderFilters(summary.facets);
  showTab('timeline');
}

onHostMessage((message) => {
  switch (message.type) {
    case 'summary':
      summary = message.summary;
      emptyHint.hidden = summary.total > 0;
      // The index is complete: swap the newest-records preview for the real list.
      if (timeline.partial) timeline.reload();
      renderFilters(summary.facets);
      intentsPane.replaceChildren(renderIntents(summary.intents, summary.chart, pickIntent, () => vscode.postMessage({ type: 'openIntentMap' })));
      return;
    case 'chain':
      return renderChain(message.chain);
    case 'page':
      return timeline.receive(message.seq, message.total, message.start, message.rows, message.partial, message.branch);
    case 'appended':
      return timeline.reload();
    case 'detail':
      state = { ...state, selectedId: message.detail.row.id };
      save();
      detailPane.replaceChildren(renderDetail(message.detail));
      return;
    case 'focus':
      showTab('timeline');
      if (message.key !== undefined) vscode.postMessage({ type: 'openRecord', key: message.key });
      return;
    case 'showIntent':
      return pickIntent(message.intent);
  }
});

showTab(state.tab);
timeline.setFilter(state.filter);
vscode.postMessage({ type: 'ready', selectedId: state.selectedId });
