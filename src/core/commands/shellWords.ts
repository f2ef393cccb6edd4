import type { ShNode } from 'mvdan-sh';
import { shSyntax } from './mvdanSh';

/** One shell word after quote removal. `dynamic`: its value is only known when the shell runs it. */
export interface ShellWord {
  text: string;
  dynamic: boolean;
}

/** A character of a word; `active` when unquoted and unescaped, so brace expansion may act on it. */
interface Char {
  c: string;
  active: boolean;
}

interface Chars {
  chars: Char[];
  dynamic: boolean;
  quoted: boolean;
}

/** How a word's literal text was quoted decides which backslashes are escapes. */
type LitMode = 'bare' | 'double' | 'raw';

// More words than this from one brace expression is not a command an agent means; treat as unknowable.
const MAX_BRACE_WORDS = 256;

/** Reads source text by node position; mvdan-sh positions are UTF-8 byte offsets. */
export class SourceText {
  private readonly bytes: Buffer;
  constructor(source: string) {
    this.bytes = Buffer.from(source, 'utf8');
  }
  of(node: ShNode): string {
    return this.bytes.subarray(node.Pos().Offset(), node.End().Offset()).toString('utf8');
  }
}

/** Expands a word node into the words the shell would pass (brace expansion applied, globs left as text). */
export function expandWord(word: ShNode, src: SourceText): ShellWord[] {
  const parts = wordChars(word, src, 'bare');
  const expanded = expandBraces(parts.chars, 0, { left: MAX_BRACE_WORDS });
  if (expanded === null) return [{ text: src.of(word), dynamic: true }];
  const words = expanded.map((chars) => ({ text: chars.map((ch) => ch.c).join(''), dynamic: parts.dynamic }));
  // Bash drops empty fields that braces produced from an unquoted word (`rm -rf {,}` removes nothing).
  return expanded.length > 1 && !parts.quoted ? words.filter((w) => w.text !== '' || w.dynamic) : words;
}

/** One word where the shell allows exactly one (redirect targets); several expansions make it unknowable. */
export function singleWord(word: ShNode, src: SourceText): ShellWord {
  const words = expandWord(word, src);
  return words.length === 1 ? words[0] : { text: src.of(word), dynamic: true };
}

/** A word whose literal parts are not unescaped at all (quoted heredoc bodies), or are as in "…". */
export function plainWord(word: ShNode, src: SourceText, mode: LitMode): ShellWord {
  const parts = wordChars(word, src, mode);
  return { text: parts.chars.map((ch) => ch.c).join(''), dynamic: parts.dynamic };
}

function wordChars(word: ShNode, src: SourceText, mode: LitMode): Chars {
  const out: Chars = { chars: [], dynamic: false, quoted: false };
  for (const part of word.Parts as ShNode[]) appendPart(part, src, mode, out);
  return out;
}

function appendPart(part: ShNode, src: SourceText, mode: LitMode, out: Chars): void {
  const type = shSyntax().NodeType(part);
  if (type === 'Lit') {
    out.chars.push(...unescape(String(part.Value), mode));
  } else if (type === 'SglQuoted' && !part.Dollar) {
    out.quoted = true;
    out.chars.push(...inert(String(part.Value)));
  } else if (type === 'DblQuoted' && !part.Dollar) {
    out.quoted = true;
    for (const inner of part.Parts as ShNode[]) appendPart(inner, src, 'double', out);
    for (const ch of out.chars) ch.active = false;
  } else if (type === 'ExtGlob') {
    // A glob is matched against files, not run: its text stays, and it is not dynamic.
    out.chars.push(...inert(src.of(part)));
  } else {
    // Parameter/arithmetic/command/process substitution, $'…' and $"…": value known only at run time.
    out.dynamic = true;
    out.chars.push(...inert(src.of(part)));
  }
}

function inert(text: string): Char[] {
  return Array.from(text, (c) => ({ c, active: false }));
}

// Inside "…" and unquoted heredocs a backslash escapes only these; elsewhere it stays literal.
const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '"', '\\']);

function unescape(value: string, mode: LitMode): Char[] {
  if (mode === 'raw') return inert(value);
  const chars: Char[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c !== '\\' || i + 1 >= value.length) {
      chars.push({ c, active: mode === 'bare' });
      continue;
    }
    const next = value[i + 1];
    if (next === '\n') {
      i++; // line continuation disappears
    } else if (mode === 'bare' || DOUBLE_QUOTE_ESCAPES.has(next)) {
      chars.push({ c: next, active: false });
      i++;
    } else {
      chars.push({ c, active: false });
    }
  }
  return chars;
}

interface Budget {
  left: number;
}

/** Bash brace expansion over active characters; null when it would produce more than the budget. */
function expandBraces(chars: Char[], from: number, budget: Budget): Char[][] | null {
  for (let open = from; open < chars.length; open++) {
    if (!isActive(chars[open], '{')) continue;
    const close = matchingBrace(chars, open);
    if (close < 0) return [chars];
    const alternatives = braceAlternatives(chars.slice(open + 1, close), budget);
    if (alternatives === null) return null;
    if (alternatives.length === 0) continue; // `{a}` and `{}` are literal
    const results: Char[][] = [];
    for (const alt of alternatives) {
      const expanded = expandBraces([...chars.slice(0, open), ...alt, ...chars.slice(close + 1)], open, budget);
      if (expanded === null) return null;
      results.push(...expanded);
    }
    budget.left -= results.length;
    return budget.left < 0 ? null : results;
  }
  return [chars];
}

function isActive(ch: Char, c: string): boolean {
  return ch.active && ch.c === c;
}

function matchingBrace(chars: Char[], open: number): number {
  let depth = 0;
  for (let i = open; i < chars.length; i++) {
    if (isActive(chars[i], '{')) depth++;
    else if (isActive(chars[i], '}') && --depth === 0) return i;
  }
  return -1;
}

/** The alternatives of `{a,b}` (nested braces kept for the recursive pass) or of a `{1..9}` sequence. */
function braceAlternatives(inner: Char[], budget: Budget): Char[][] | null {
  const alternatives: Char[][] = [[]];
  let depth = 0;
  for (const ch of inner) {
    if (isActive(ch, '{')) depth++;
    if (isActive(ch, '}')) depth--;
    if (depth === 0 && isActive(ch, ',')) alternatives.push([]);
    else alternatives[alternatives.length - 1].push(ch);
  }
  if (alternatives.length > 1) return alternatives;
  return inner.every((ch) => ch.active) ? sequence(inner.map((ch) => ch.c).join(''), budget) : [];
}

const NUMERIC_SEQUENCE = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/;
const LETTER_SEQUENCE = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/;

function sequence(text: string, budget: Budget): Char[][] | null {
  const numeric = NUMERIC_SEQUENCE.exec(text);
  const letters = numeric ? null : LETTER_SEQUENCE.exec(text);
  const match = numeric ?? letters;
  if (!match) return [];
  const start = numeric ? Number(match[1]) : match[1].charCodeAt(0);
  const end = numeric ? Number(match[2]) : match[2].charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  if (Math.abs(end - start) / step + 1 > budget.left) return null;
  const width = numeric && [match[1], match[2]].some((s) => /^-?0\d/.test(s)) ? Math.max(match[1].length, match[2].length) : 0;
  const values: Char[][] = [];
  for (let v = start; start <= end ? v <= end : v >= end; v += start <= end ? step : -step) {
    const text = numeric ? String(v).padStart(width, '0') : String.fromCharCode(v);
    values.push(inert(text));
  }
  return values;
}
