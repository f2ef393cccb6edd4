import { decisionLook } from '../src/shared/decisionTone';
import type { RecordDetail } from '../src/shared/inspectorProtocol';
import { decisionIcon } from './decisionIcon';
import { h, shortTime } from './dom';
import { vscode } from './vscodeApi';

/** The record detail pane: who, when, under which intent, each file with its ranges (each opens the editor there), hashes. */
export function renderDetail(detail: RecordDetail): HTMLElement {
  const { row } = detail;
  const look = decisionLook(row);
  const facts: [string, string | undefined][] = [
    ['Record', row.id],
    ['Log', `${row.source === 'trace' ? 'agent_trace.jsonl' : 'governance_log.jsonl'} line ${row.line}`],
    ['Time', shortTime(row.timestamp)],
    ['Intent', row.intent],
    ['Agent', row.agent],
    ['Model', row.model],
    ['Decision', row.code ? `${row.decision} (${row.code})` : row.decision],
    ['Approver', detail.approver],
    ['Tool', detail.tool],
    ['Operation', detail.operation],
    ['Class', detail.mutationClass && `${detail.mutationClass}${detail.mutationClassRule ? ` (${detail.mutationClassRule}: ${detail.mutationClassReason ?? ''})` : ''}`],
    ['Session', detail.session],
    ['Invocation', detail.invocation],
    ['Message', detail.message],
    ['Signer', detail.signer],
    ['Hash', detail.hash],
    ['Previous', detail.prevHash],
  ];
  const list = h('dl', { class: 'facts' });
  for (const [name, value] of facts) {
    if (!value) continue;
    // The decision reads as it does in the list: its tone's colour and icon, its label in words.
    const dd = name === 'Decision' ? h('dd', { class: 'decision' }, decisionIcon(look), ` ${value} · ${look.label}`) : h('dd', {}, value);
    list.append(h('dt', {}, name), dd);
  }
  const files = h('div', { class: 'files' });
  for (const file of detail.files) {
    const head = h('div', { class: 'file-head' }, h('span', { class: 'path' }, file.path), ` ${file.change ?? ''} · ${file.changedLines} changed line${file.changedLines === 1 ? '' : 's'}`);
    const ranges = h('ul', { class: 'ranges' });
    for (const range of file.ranges) {
      const button = h('button', { class: 'open-range', type: 'button', title: `Reveal lines ${range.startLine}-${range.endLine} in the editor` }, `Open at ${range.startLine}-${range.endLine}`);
      button.addEventListener('click', () => vscode.postMessage({ type: 'openAtRange', path: file.path, startLine: range.startLine, endLine: range.endLine }));
      ranges.append(h('li', {}, button, h('code', {}, ` ${range.contentHash ?? ''}`)));
    }
    const hashes = h('div', { class: 'hashes' }, file.beforeHash ? `before ${file.beforeHash}` : '', file.afterHash ? ` after ${file.afterHash}` : '');
    files.append(h('div', { class: 'file' }, head, ranges, hashes));
  }
  const raw = h('details', {}, h('summary', {}, 'Raw record'), h('pre', {}, detail.raw));
  return h('section', { class: `detail ${row.source} tone-${look.tone}`, 'aria-label': 'Record detail', tabindex: -1 }, h('h2', {}, row.source === 'trace' ? 'Change' : 'Governance event'), list, files, raw);
}
