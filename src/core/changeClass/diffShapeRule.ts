import { evolution, type ChangeClass } from './changeClass';

/**
 * Line-comment markers of languages we have no parser for. A file of any other type has no layout rule: its
 * whitespace may be meaning (Markdown's trailing spaces, a text file's blank lines), so every change evolves it.
 */
const LINE_COMMENTS = new Map<string, string>([
  ...['.py', '.pyi', '.rb', '.sh', '.bash', '.zsh', '.pl', '.r', '.toml', '.cfg', '.ini', '.tf'].map((e) => [e, '#'] as const),
  ...['.c', '.h', '.cc', '.cpp', '.hpp', '.java', '.kt', '.kts', '.scala', '.go', '.rs', '.cs', '.swift', '.dart', '.php', '.css', '.scss', '.less'].map((e) => [e, '//'] as const),
  ...['.sql', '.lua', '.hs'].map((e) => [e, '--'] as const),
]);

/**
 * The fallback without a parser, the "diff shape": a change is a refactoring when, line by line, the old and
 * new content are the same once these are set aside:
 * - blank lines, and whitespace at the end of a line;
 * - whole-line comments (the language's line-comment marker first on the line), except a first-line `#!`
 *   and a `coding:` declaration, which change how the file runs;
 * - whitespace inside a line next to punctuation (`a=b` and `a = b`), on lines without a quote character
 *   (the whitespace could be inside a string).
 * Indentation is compared exactly: in Python, YAML or a Makefile it is meaning. What it cannot see: a change
 * inside a multi-line string or block comment. Anything else is evolution.
 */
export function diffShapeRule(extension: string, before: string, after: string): ChangeClass {
  const marker = LINE_COMMENTS.get(extension);
  if (!marker) return evolution('diff-shape', `no parser or layout rule for ${extension || 'files without an extension'}: every change counts`);
  const old = significantLines(before, marker);
  const now = significantLines(after, marker);
  const at = firstDifference(old, now);
  if (at === undefined) return { class: 'AST_REFACTOR', rule: 'diff-shape', reason: 'only blank lines, comment lines or spacing change' };
  const line = now[at] ?? old[at];
  return evolution('diff-shape', `line ${line.number} ${now[at] ? 'changes code' : 'removes code'}`);
}

interface SignificantLine {
  number: number;
  text: string;
}

function significantLines(text: string, marker: string): SignificantLine[] {
  const lines: SignificantLine[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, index) => {
    const line = raw.replace(/\s+$/, '');
    const body = line.trimStart();
    if (body === '') return;
    const directive = (index === 0 && body.startsWith('#!')) || (index < 2 && /coding[:=]/.test(body));
    if (body.startsWith(marker) && !directive) return;
    lines.push({ number: index + 1, text: /['"`]/.test(body) ? line : normaliseSpacing(line) });
  });
  return lines;
}

/** Indentation kept; inside the line, runs of whitespace go where a neighbour is punctuation, else become one space. */
function normaliseSpacing(line: string): string {
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  const body = line
    .slice(indent.length)
    .replace(/\s+/g, ' ')
    .replace(/([\p{L}\p{N}_$]) (?=[^\p{L}\p{N}_$])|([^\p{L}\p{N}_$]) (?=[\p{L}\p{N}_$])/gu, '$1$2');
  return indent + body;
}

function firstDifference(a: SignificantLine[], b: SignificantLine[]): number | undefined {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i += 1) if (a[i]?.text !== b[i]?.text) return i;
  return undefined;
}
