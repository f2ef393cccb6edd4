// The icon in a row's decision cell: small inline SVGs drawn in currentColor, so each takes its tone's theme
// colour. Built through the DOM (the webview's CSP allows no inline markup and no icon font is bundled).
import type { DecisionLook, DecisionTone } from '../src/shared/decisionTone';
import { svg } from './dom';

const STROKE = { fill: 'none', stroke: 'currentColor', 'stroke-width': 1.5, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
const ring = () => svg('circle', { cx: 8, cy: 8, r: 6.25, ...STROKE });
const dot = (cx: number, cy: number) => svg('circle', { cx, cy, r: 0.9, fill: 'currentColor' });

const SHAPES: Record<DecisionTone, () => SVGElement[]> = {
  // A circle struck through: "not allowed".
  refused: () => [ring(), svg('path', { d: 'M3.6 12.4 12.4 3.6', ...STROKE })],
  failed: () => [svg('path', { d: 'M8 1.9 14.6 13.6H1.4Z', ...STROKE }), svg('path', { d: 'M8 6v3.6', ...STROKE }), dot(8, 11.6)],
  asked: () => [ring(), svg('path', { d: 'M6.2 6.3a1.9 1.9 0 1 1 2.7 1.7c-.6.3-.9.7-.9 1.3v.3', ...STROKE }), dot(8, 11.4)],
  voided: () => [ring(), svg('path', { d: 'M5 8h6', ...STROKE })],
  policy: () => [ring(), svg('path', { d: 'M8 7.2v4', ...STROKE }), dot(8, 4.9)],
  approved: () => [ring(), svg('path', { d: 'M5.2 8.2 7.2 10.2 10.9 6', ...STROKE })],
  allowed: () => [svg('path', { d: 'M2.8 8.6 6.2 12 13.2 4.4', ...STROKE })],
  none: () => [dot(8, 8)],
};

/** The tone's icon, named for assistive technology by its label (and shown as a tooltip). */
export function decisionIcon(look: DecisionLook): Element {
  const icon = svg('svg', { class: `icon tone-icon-${look.tone}`, viewBox: '0 0 16 16', width: 14, height: 14, role: 'img', 'aria-label': look.label, focusable: 'false' }, ...SHAPES[look.tone]());
  icon.prepend(svg('title', {}, document.createTextNode(look.label)));
  return icon;
}
