import type { ActivityChart, IntentSummary } from '../src/shared/inspectorProtocol';
import { h, shortTime, svg } from './dom';

const WIDTH = 600;
const HEIGHT = 140;
const PAD = 24;

/**
 * The intents table (status, scope, counts, last activity) and the changes-per-intent chart; a click filters the
 * timeline. Above them, a link to the intent map: the same intents with the files and lines their changes hold.
 */
export function renderIntents(intents: IntentSummary[], chart: ActivityChart, pick: (intent: string) => void, openMap: () => void): HTMLElement {
  const mapLink = h('button', { class: 'link intent-map', type: 'button', title: 'Rebuild .orchestration/intent_map.md and open it' }, 'Open the intent map');
  mapLink.addEventListener('click', openMap);
  const body = h('tbody');
  for (const intent of intents) {
    const link = h('button', { class: 'link', type: 'button', title: 'Show this intent in the timeline' }, intent.id);
    link.addEventListener('click', () => pick(intent.id));
    body.append(
      h(
        'tr',
        { 'data-intent': intent.id },
        h('td', {}, link),
        h('td', {}, intent.name),
        h('td', { class: `status status-${intent.status.replace(/\s+/g, '-')}` }, intent.status),
        h('td', { class: 'scope' }, intent.scope.join(', ')),
        h('td', { class: 'num' }, String(intent.changes)),
        h('td', { class: 'num' }, String(intent.governanceEvents)),
        h('td', {}, intent.lastActivity ? shortTime(intent.lastActivity) : ''),
      ),
    );
  }
  const head = h('thead', {}, h('tr', {}, ...['Intent', 'Name', 'Status', 'Scope', 'Changes', 'Refusals', 'Last activity'].map((t) => h('th', {}, t))));
  const mapNote = h('p', { class: 'hint' }, mapLink, ' every intent with the files its changes touched, the lines they hold now and its refusals.');
  return h('section', { class: 'intents' }, mapNote, h('table', {}, head, body), renderChart(chart));
}

/** One polyline per intent, coloured from the theme's chart palette; inline SVG, no library. */
function renderChart(chart: ActivityChart): HTMLElement {
  const figure = h('figure', { class: 'chart' });
  if (!chart.buckets.length) {
    figure.append(h('figcaption', {}, 'No changes yet.'));
    return figure;
  }
  const max = Math.max(1, ...chart.series.flatMap((s) => s.counts));
  const step = (WIDTH - 2 * PAD) / Math.max(1, chart.buckets.length - 1);
  const y = (n: number) => HEIGHT - PAD - (n / max) * (HEIGHT - 2 * PAD);
  const root = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': 'Changes per intent over time', class: 'chart-svg' });
  root.append(svg('line', { x1: PAD, y1: HEIGHT - PAD, x2: WIDTH - PAD, y2: HEIGHT - PAD, class: 'axis' }));
  const legend = h('div', { class: 'legend' });
  chart.series.forEach((series, i) => {
    const points = series.counts.map((n, b) => `${(PAD + b * step).toFixed(1)},${y(n).toFixed(1)}`).join(' ');
    root.append(svg('polyline', { points, class: `series series-${i % 6}` }));
    legend.append(h('span', { class: `key series-${i % 6}` }, series.intent));
  });
  const label = (text: string, x: number, anchor: string) => {
    const t = svg('text', { x, y: HEIGHT - 6, 'text-anchor': anchor, class: 'tick' });
    t.textContent = text;
    return t;
  };
  root.append(label(shortTime(chart.buckets[0]), PAD, 'start'), label(shortTime(chart.buckets.at(-1) ?? ''), WIDTH - PAD, 'end'));
  figure.append(h('figcaption', {}, `Changes per intent over time (peak ${max} per bucket)`), root, legend);
  return figure;
}
