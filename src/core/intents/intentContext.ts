import type { Intent } from './intent';

/** Markdown inline code that survives backticks inside the value. */
function code(value: string): string {
  const longest = Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

/** A bullet whose continuation lines stay inside the bullet. */
function bullet(value: string): string {
  return `- ${value.trim().replace(/\r?\n/g, '\n  ')}`;
}

function section(title: string, items: string[], empty: string): string[] {
  return [`## ${title}`, ...(items.length ? items.map(bullet) : [empty]), ''];
}

/** What an agent reads after select_active_intent: the plan it is bound to and the rules its writes go through. */
export function renderIntentContext(intent: Intent): string {
  const header = [`# Active intent: ${code(intent.id)} ${intent.name.trim()}`, ''];
  const meta = [`Status: ${intent.status}${intent.owner ? ` · Owner: ${intent.owner}` : ''}`];
  if (intent.status !== 'IN_PROGRESS') {
    meta.push(`Writes are refused with INTENT_NOT_ACTIVE until a human sets this intent to IN_PROGRESS.`);
  }
  const scope = [
    '## Owned scope',
    ...(intent.owned_scope.length ? intent.owned_scope.map((g) => `- ${code(g)}`) : ['(nothing yet)']),
    '',
    'Writes outside these globs are refused with SCOPE_VIOLATION (hidden files need a glob that names them). ' +
      'If the work needs more, call request_scope_expansion with the globs and a reason; a human decides.',
    '',
  ];
  const protocol = [
    '## Protocol',
    '- Read a file before changing it, and pass the content_hash you got as expected_content_hash; ' +
      'STALE_FILE means it changed since: read it again and redo the change.',
    '- Respect the constraints; the work is done when every acceptance criterion holds.',
  ];
  return [
    ...header,
    ...meta,
    '',
    ...scope,
    ...section('Constraints', intent.constraints, '(none)'),
    ...section('Acceptance criteria', intent.acceptance_criteria, '(none stated)'),
    ...(intent.related.length ? section('Related', intent.related, '') : []),
    ...protocol,
  ].join('\n');
}
