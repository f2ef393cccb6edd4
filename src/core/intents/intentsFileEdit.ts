import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, isSeq, type YAMLSeq } from 'yaml';
import { fail, ok, toolError, type Result } from '../toolError';
import type { Intent, IntentStatus } from './intent';
import { findPair, formatProblem, MAX_SCOPE_PATTERNS_PER_INTENT, parseIntentsDocument, type ParsedIntentsFile } from './intentsFile';
import { normalizeScopePattern, validateScopePattern } from './scopePattern';

/*
 * The human's edits from the Intents view: a new intent appended, an intent's owned_scope replaced. Like
 * intentsWriter, every edit is a text splice at the ranges yaml reports, so comments and layout elsewhere stay as
 * written, and the result is read back by the loader: it must be valid and differ from the original by exactly the
 * requested change, or nothing is written.
 */

/** What New Intent… asks for; the loader's rules decide whether it may be written. */
export interface IntentDraft {
  id: string;
  name: string;
  status: IntentStatus;
  owned_scope: string[];
  constraints: string[];
  acceptance_criteria: string[];
}

const INT_ID = /^INT-(\d+)$/;

/** The id New Intent… suggests: one past the highest `INT-NNN` in the plan (at least three digits). */
export function nextIntentId(intents: readonly Pick<Intent, 'id'>[]): string {
  let highest = 0;
  for (const { id } of intents) {
    const match = INT_ID.exec(id);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return `INT-${String(highest + 1).padStart(3, '0')}`;
}

/** Why `glob` cannot be owned (the loader's reason), or undefined; for input boxes that check as the human types. */
export function scopeInputProblem(globs: string[]): string | undefined {
  for (const glob of globs) {
    const reason = validateScopePattern(glob);
    if (reason) return `'${glob}' is rejected: ${reason}`;
  }
  if (globs.length > MAX_SCOPE_PATTERNS_PER_INTENT) return `at most ${MAX_SCOPE_PATTERNS_PER_INTENT} globs; use broader ones such as 'src/feature/**'`;
  return undefined;
}

/** Splits what a human typed into globs: commas or whitespace separate them (globs never need either). */
export function parseGlobList(typed: string): string[] {
  return typed.split(/[\s,]+/).filter((g) => g !== '');
}

/** Appends `draft` to `active_intents`; an entry the loader would refuse is refused with the loader's message. */
export function appendIntentToText(text: string, file: string, draft: IntentDraft): Result<string> {
  const before = parseIntentsDocument(text, file);
  if (!before.snapshot.valid) return invalidFile(before);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const candidate = spliceNewIntent(text, before, entryLines(draft), eol);
  if (candidate === undefined) return unsupportedLayout(file, draft.id);
  const after = parseIntentsDocument(candidate, file).snapshot;
  if (!after.valid) {
    const reasons = after.problems.slice(0, 5).map((p) => p.message).join('\n');
    return fail(toolError('INVALID_INPUT', `The new intent was not written: ${reasons}`, { file, intent_id: draft.id, problems: after.problems }));
  }
  const added = after.intents[after.intents.length - 1];
  if (!isDeepStrictEqual(after.intents.slice(0, -1), before.snapshot.intents) || added?.id !== draft.id) return unsupportedLayout(file, draft.id);
  return ok(candidate);
}

/** Replaces the intent's owned_scope with `globs` (normalized, duplicates dropped); `[]` leaves it owning nothing. */
export function setScopeInText(text: string, file: string, intentId: string, globs: string[]): Result<string> {
  const problem = scopeInputProblem(globs);
  if (problem) return fail(toolError('INVALID_INPUT', `The scope was not changed: ${problem}.`, { intent_id: intentId }));
  const wanted = [...new Set(globs.map(normalizeScopePattern))];
  const parsed = parseIntentsDocument(text, file);
  if (!parsed.snapshot.valid) return invalidFile(parsed);
  const intent = parsed.snapshot.intents.find((i) => i.id === intentId);
  if (!intent) return fail(toolError('INTENT_NOT_FOUND', `No intent '${intentId}' in ${file}; it was renamed or removed, refresh the Intents view.`, { intent_id: intentId }));
  if (isDeepStrictEqual(intent.owned_scope, wanted)) return ok(text);
  const candidate = spliceScope(text, parsed, intentId, wanted);
  const want = parsed.snapshot.intents.map((i) => (i.id === intentId ? { ...i, owned_scope: wanted } : i));
  if (candidate !== undefined) {
    const after = parseIntentsDocument(candidate, file).snapshot;
    if (after.valid && isDeepStrictEqual(after.intents, want)) return ok(candidate);
  }
  return unsupportedLayout(file, intentId);
}

// ---- new entries -----------------------------------------------------------------------------------------------

/** The draft as YAML lines of one block-sequence item (`- id: …`), written by yaml itself so any string round-trips. */
function entryLines(draft: IntentDraft): string[] {
  const entry: Record<string, unknown> = { id: draft.id, name: draft.name, status: draft.status, owned_scope: draft.owned_scope };
  if (draft.constraints.length > 0) entry.constraints = draft.constraints;
  if (draft.acceptance_criteria.length > 0) entry.acceptance_criteria = draft.acceptance_criteria;
  const yaml = new Document([entry]).toString({ indent: 2, lineWidth: 0, flowCollectionPadding: false });
  return yaml.replace(/\n$/, '').split('\n');
}

function spliceNewIntent(text: string, parsed: ParsedIntentsFile, lines: string[], eol: string): string | undefined {
  const root = parsed.document?.contents;
  if (!root || (isScalar(root) && root.value === null)) return appendBlock(text, ['active_intents:', ...indent(lines, '  ')], eol);
  if (!isMap(root)) return undefined;
  const pair = findPair(root, 'active_intents');
  if (!pair) return root.flow ? undefined : appendBlock(text, ['active_intents:', ...indent(lines, '  ')], eol);
  const value = pair.value;
  const keyEnd = (pair.key as { range?: [number, number, number] }).range?.[1];
  if (keyEnd === undefined || !isMap(root) || root.flow) return undefined;
  const keyIndent = ' '.repeat(keyColumn(text, keyEnd));
  if (value === null || (isScalar(value) && value.value === null)) {
    // `active_intents:` with nothing after it: the list starts on the key's line's next line.
    return insertLinesAfter(text, keyEnd, indent(lines, `${keyIndent}  `), eol);
  }
  if (isSeq(value) && value.flow && value.items.length === 0 && value.range) {
    // `active_intents: []` (the template): the empty flow list becomes a block list.
    const [start, end] = value.range;
    const lineEnd = text.indexOf('\n', end);
    const restOfLine = text.slice(end, lineEnd === -1 ? text.length : lineEnd).replace(/\r$/, '').trim();
    if (restOfLine !== '' && !restOfLine.startsWith('#')) return undefined;
    // A comment after `[]` stays on the key's line.
    const head = text.slice(0, start).replace(/[^\S\r\n]+$/, '') + (restOfLine ? ` ${restOfLine}` : '');
    const after = lineEnd === -1 ? '' : text.slice(lineEnd + 1);
    return head + eol + indent(lines, `${keyIndent}  `).join(eol) + eol + after;
  }
  if (isSeq(value) && !value.flow) return appendToBlockSeq(text, value, lines, eol);
  return undefined;
}

function appendToBlockSeq(text: string, seq: YAMLSeq, lines: string[], eol: string): string | undefined {
  const dash = seq.range?.[0];
  const last = seq.items[seq.items.length - 1] as { range?: [number, number, number] } | undefined;
  const lastEnd = last?.range?.[1];
  if (dash === undefined || lastEnd === undefined || text[dash] !== '-') return undefined;
  const column = dash - lineStart(text, dash);
  // A value ending at a line break already owns it; insert after the line that holds its last character.
  const at = text[lastEnd - 1] === '\n' ? lastEnd - 1 : lastEnd;
  return insertLinesAfter(text, at, indent(lines, ' '.repeat(column)), eol);
}

// ---- scope -----------------------------------------------------------------------------------------------------

function spliceScope(text: string, parsed: ParsedIntentsFile, intentId: string, globs: string[]): string | undefined {
  const entry = parsed.intentNodes.get(intentId);
  const pair = entry && findPair(entry, 'owned_scope');
  if (!pair) return undefined;
  const value = pair.value as { range?: [number, number, number] } | null;
  const flow = `[${globs.map(scalarText).join(', ')}]`;
  if (isSeq(value) && !value.flow && value.range && globs.length > 0) {
    const [start] = value.range;
    const last = value.items[value.items.length - 1] as { range?: [number, number, number] } | undefined;
    let end = last?.range?.[1];
    if (end === undefined || text[start] !== '-') return undefined;
    while (end > start && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
    const pad = ' '.repeat(start - lineStart(text, start));
    return text.slice(0, start) + globs.map((g) => `- ${scalarText(g)}`).join(text.includes('\r\n') ? `\r\n${pad}` : `\n${pad}`) + text.slice(end);
  }
  if (value?.range) {
    const [start, end] = value.range;
    if (start === end) return text.slice(0, start) + (text[start - 1] === ':' ? ' ' : '') + flow + text.slice(end);
    let stop = end;
    while (stop > start && (text[stop - 1] === '\n' || text[stop - 1] === '\r')) stop--;
    return text.slice(0, start) + flow + text.slice(stop);
  }
  const keyEnd = (pair.key as { range?: [number, number, number] }).range?.[1];
  if (keyEnd === undefined || text[keyEnd] !== ':') return undefined;
  return text.slice(0, keyEnd + 1) + ` ${flow}` + text.slice(keyEnd + 1);
}

/** A glob as YAML: plain when it reads back as itself, else double-quoted (JSON strings are valid YAML). */
function scalarText(glob: string): string {
  const plain = new Document(glob).toString().replace(/\n$/, '');
  return plain === glob ? glob : JSON.stringify(glob);
}

// ---- text helpers ----------------------------------------------------------------------------------------------

function indent(lines: string[], pad: string): string[] {
  return lines.map((l) => (l === '' ? l : pad + l));
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function keyColumn(text: string, keyEnd: number): number {
  const start = lineStart(text, keyEnd);
  return text.slice(start).match(/^ */)?.[0].length ?? 0;
}

function appendBlock(text: string, lines: string[], eol: string): string {
  const sep = text === '' || text.endsWith('\n') ? '' : eol;
  return text + sep + lines.join(eol) + eol;
}

/** Inserts whole lines after the line that holds `offset`, so a trailing comment on that line stays where it was. */
function insertLinesAfter(text: string, offset: number, lines: string[], eol: string): string {
  const newline = text.indexOf('\n', offset);
  const block = lines.map((l) => l + eol).join('');
  if (newline === -1) return text + eol + block;
  return text.slice(0, newline + 1) + block + text.slice(newline + 1);
}

function invalidFile(parsed: ParsedIntentsFile): Result<never> {
  if (parsed.snapshot.valid) throw new Error('invalidFile needs an invalid snapshot');
  const shown = parsed.snapshot.problems.slice(0, 10).map(formatProblem).join('\n');
  return fail(
    toolError('INTENTS_FILE_INVALID', `The intents file is invalid; fix it before changing intents:\n${shown}`, {
      file: parsed.snapshot.file,
      problems: parsed.snapshot.problems,
    }),
  );
}

function unsupportedLayout(file: string, intentId: string): Result<never> {
  return fail(
    toolError(
      'INTENTS_FILE_INVALID',
      `Could not change ${file} for intent '${intentId}' without changing something else (a flow-style list, or a list ` +
        'shared through a YAML anchor?); edit the file by hand.',
      { file, intent_id: intentId, reason: 'unsupported_layout' },
    ),
  );
}
