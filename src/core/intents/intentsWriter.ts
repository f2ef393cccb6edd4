import { isDeepStrictEqual } from 'node:util';
import { isAlias, isScalar, isSeq, parse, type Scalar, type YAMLSeq } from 'yaml';
import { fail, ok, toolError, type Result } from '../toolError';
import { INTENT_STATUSES, type Intent, type IntentStatus } from './intent';
import { findPair, formatProblem, MAX_SCOPE_PATTERNS_PER_INTENT, parseIntentsDocument, type ParsedIntentsFile } from './intentsFile';
import { normalizeScopePattern, validateScopePattern } from './scopePattern';

/*
 * Edits are text splices at the node ranges yaml's Document reports, so every byte outside the changed node stays as
 * the user wrote it (Document.toString would move comments, re-space them and reflow flow collections). Each result
 * is parsed again and must differ from the original by exactly the requested change, else the edit is refused.
 */

/** Adds `globs` to the intent's owned_scope (filling in an empty `owned_scope:`); globs already there are skipped. */
export function addScopeToText(text: string, file: string, intentId: string, globs: string[]): Result<string> {
  if (globs.length === 0) return fail(toolError('INVALID_INPUT', 'No globs given; pass at least one workspace-relative glob such as src/feature/**.'));
  const wanted: string[] = [];
  for (const glob of globs) {
    const reason = typeof glob === 'string' ? validateScopePattern(glob) : 'a glob must be a string';
    if (reason) return fail(toolError('INVALID_INPUT', `Scope pattern '${String(glob)}' is rejected: ${reason}.`, { glob, reason }));
    const normalized = normalizeScopePattern(glob);
    if (!wanted.includes(normalized)) wanted.push(normalized);
  }
  const located = locate(text, file, intentId);
  if (!located.ok) return located;
  const { intent, parsed } = located.value;
  const added = wanted.filter((g) => !intent.owned_scope.includes(g));
  if (added.length === 0) return ok(text);
  if (intent.owned_scope.length + added.length > MAX_SCOPE_PATTERNS_PER_INTENT) {
    return fail(
      toolError(
        'INVALID_INPUT',
        `Intent '${intentId}' would have more than ${MAX_SCOPE_PATTERNS_PER_INTENT} owned_scope patterns; ask for a broader glob such as dir/** instead.`,
        { intent_id: intentId },
      ),
    );
  }
  const expected = { ...intent, owned_scope: [...intent.owned_scope, ...added] };
  return commit(text, file, parsed, expected, spliceScope(text, parsed, expected, added));
}

/** Changes the intent's status. */
export function setStatusInText(text: string, file: string, intentId: string, status: IntentStatus): Result<string> {
  if (!(INTENT_STATUSES as readonly string[]).includes(status)) {
    return fail(toolError('INVALID_INPUT', `Status '${String(status)}' is not one of ${INTENT_STATUSES.join(', ')}.`, { status }));
  }
  const located = locate(text, file, intentId);
  if (!located.ok) return located;
  const { intent, parsed } = located.value;
  if (intent.status === status) return ok(text);
  return commit(text, file, parsed, { ...intent, status }, spliceStatus(text, parsed, intentId, status));
}

interface Located {
  intent: Intent;
  parsed: ParsedIntentsFile;
}

function locate(text: string, file: string, intentId: string): Result<Located> {
  const parsed = parseIntentsDocument(text, file);
  const snapshot = parsed.snapshot;
  if (!snapshot.valid) {
    const shown = snapshot.problems.slice(0, 10).map(formatProblem).join('\n');
    return fail(
      toolError('INTENTS_FILE_INVALID', `The intents file is invalid; fix it before changing intents:\n${shown}`, {
        file,
        problems: snapshot.problems,
      }),
    );
  }
  const intent = snapshot.intents.find((i) => i.id === intentId);
  if (!intent) {
    const ids = snapshot.intents.map((i) => i.id);
    const known = ids.length === 0 ? '(none)' : ids.slice(0, 20).join(', ') + (ids.length > 20 ? ', …' : '');
    return fail(toolError('INTENT_NOT_FOUND', `No intent '${intentId}' in ${file}; known intents: ${known}.`, { intent_id: intentId }));
  }
  return ok({ intent, parsed });
}

/** Accepts the edited text only if, read back, it differs from the original by exactly the expected intent. */
function commit(text: string, file: string, parsed: ParsedIntentsFile, expected: Intent, candidate: string | undefined): Result<string> {
  if (!parsed.snapshot.valid) throw new Error('commit needs a valid snapshot');
  const want = parsed.snapshot.intents.map((i) => (i.id === expected.id ? expected : i));
  if (candidate !== undefined && candidate !== text) {
    const after = parseIntentsDocument(candidate, file).snapshot;
    if (after.valid && isDeepStrictEqual(after.intents, want)) return ok(candidate);
  }
  return fail(
    toolError(
      'INTENTS_FILE_INVALID',
      `Could not change intent '${expected.id}' in ${file} without changing something else (is a list shared with ` +
        'another intent through a YAML anchor?); edit the file by hand.',
      { file, intent_id: expected.id, reason: 'unsupported_layout' },
    ),
  );
}

// ---- splices ---------------------------------------------------------------------------------------------------

function spliceScope(text: string, parsed: ParsedIntentsFile, expected: Intent, added: string[]): string | undefined {
  const entry = parsed.intentNodes.get(expected.id);
  if (!entry) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const value = findPair(entry, 'owned_scope')?.value;
  if (isAlias(value)) {
    // Writing the list out in place of the alias leaves the other intents that use the anchor unchanged.
    return replaceRange(text, value.range, flowList(expected.owned_scope, 'PLAIN'));
  }
  if (isSeq(value)) return value.flow ? appendToFlowSeq(text, value, added) : appendToBlockSeq(text, value, added, eol);
  if (isScalar(value) && value.range) {
    const [start, end] = value.range;
    const lead = start === end && text[start - 1] === ':' ? ' ' : '';
    return splice(text, start, end, lead + flowList(added, 'PLAIN'));
  }
  return undefined;
}

function spliceStatus(text: string, parsed: ParsedIntentsFile, intentId: string, status: IntentStatus): string | undefined {
  const entry = parsed.intentNodes.get(intentId);
  const value = entry && findPair(entry, 'status')?.value;
  if (!value || !(isScalar(value) || isAlias(value)) || !value.range) return undefined;
  const quote = isScalar(value) ? value.type : undefined;
  const written = quote === 'QUOTE_SINGLE' ? `'${status}'` : quote === 'QUOTE_DOUBLE' ? `"${status}"` : status;
  // A block scalar (`>-`) owns the line break after its text; the line break stays so the next key keeps its line.
  let end = value.range[1];
  while (end > value.range[0] && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  return splice(text, value.range[0], end, written);
}

function appendToFlowSeq(text: string, seq: YAMLSeq, added: string[]): string | undefined {
  const range = seq.range;
  if (!range) return undefined;
  const last = seq.items[seq.items.length - 1];
  const style = isScalar(last) ? last.type : 'PLAIN';
  const items = added.map((g) => scalarText(g, style)).join(', ');
  if (last === undefined) {
    if (text[range[0]] !== '[') return undefined;
    return splice(text, range[0] + 1, range[0] + 1, items);
  }
  const end = rangeOf(last)?.[1];
  return end === undefined ? undefined : splice(text, end, end, `, ${items}`);
}

function appendToBlockSeq(text: string, seq: YAMLSeq, added: string[], eol: string): string | undefined {
  const first = rangeOf(seq.items[0]);
  const last = seq.items[seq.items.length - 1];
  const lastEnd = rangeOf(last)?.[1];
  const dash = seq.range?.[0];
  if (!first || lastEnd === undefined || dash === undefined || text[dash] !== '-') return undefined;
  const indent = ' '.repeat(dash - lineStart(text, dash));
  const between = text.slice(dash + 1, first[0]);
  const gap = /^ +$/.test(between) ? between : ' ';
  const style = isScalar(last) ? last.type : 'PLAIN';
  const lines = added.map((g) => `${indent}-${gap}${scalarText(g, style)}`);
  return insertLinesAfter(text, lastEnd, lines, eol);
}

// ---- text helpers ----------------------------------------------------------------------------------------------

type ScalarStyle = Scalar['type'];

/** A glob as YAML: plain when that reads back as the same string in block and flow context, else quoted like its neighbours. */
function scalarText(glob: string, style: ScalarStyle): string {
  if (style === 'QUOTE_SINGLE') return `'${glob.replace(/'/g, "''")}'`;
  if (style !== 'QUOTE_DOUBLE' && /^[A-Za-z0-9_./][\w./*?-]*$/.test(glob) && parse(glob) === glob) return glob;
  return JSON.stringify(glob);
}

function flowList(globs: string[], style: ScalarStyle): string {
  return `[${globs.map((g) => scalarText(g, style)).join(', ')}]`;
}

function rangeOf(node: unknown): [number, number, number] | undefined {
  const range = (node as { range?: unknown } | null | undefined)?.range;
  return Array.isArray(range) ? (range as [number, number, number]) : undefined;
}

function replaceRange(text: string, range: [number, number, number] | undefined | null, replacement: string): string | undefined {
  return range ? splice(text, range[0], range[1], replacement) : undefined;
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Inserts whole lines after the line that holds `offset` (so a trailing comment on that line stays where it was). */
function insertLinesAfter(text: string, offset: number, lines: string[], eol: string): string {
  const newline = text.indexOf('\n', offset);
  const block = lines.map((l) => l + eol).join('');
  if (newline === -1) return text + eol + block;
  return splice(text, newline + 1, newline + 1, block);
}
