import type * as TS from 'typescript';
import { evolution, type ChangeClass } from './changeClass';
import { CanonicalTree } from './canonicalTree';
import { describeDifference, moduleOutline } from './exportSurface';
import { typescriptApi } from './typescriptApi';

/** Files the `typescript` package parses, by extension, as the compiler would (JSX in .tsx, .js, .jsx). */
export const SYNTAX_TREE_EXTENSIONS = new Map<string, keyof typeof TS.ScriptKind>([
  ['.ts', 'TS'],
  ['.mts', 'TS'],
  ['.cts', 'TS'],
  ['.tsx', 'TSX'],
  ['.js', 'JS'],
  ['.mjs', 'JS'],
  ['.cjs', 'JS'],
  ['.jsx', 'JSX'],
]);

/** Code that can reach a local by its name at run time, where renaming it would change what runs. */
const NAME_LOOKUP = /\beval\b|\bwith\s*\(/;

/**
 * TypeScript and JavaScript: both versions parsed, then printed canonically (canonicalTree.ts). The same text
 * means the same exported declarations and signatures, with only layout, comments, local names or the order
 * of hoisted declarations changed: a refactoring. Anything else, or a version that does not parse, is evolution.
 */
export function syntaxTreeRule(extension: string, before: string, after: string): ChangeClass {
  const ts = typescriptApi();
  const kind = ts.ScriptKind[SYNTAX_TREE_EXTENSIONS.get(extension) ?? 'TS'];
  const old = parse(ts, `before${extension}`, before, kind);
  const now = parse(ts, `after${extension}`, after, kind);
  if (typeof now === 'string') return evolution('syntax-tree', `the new content does not parse (${now})`);
  if (typeof old === 'string') return evolution('syntax-tree', `the old content did not parse (${old})`);
  const renameLocals = !NAME_LOOKUP.test(before) && !NAME_LOOKUP.test(after);
  if (new CanonicalTree(ts, { renameLocals }).print(old) === new CanonicalTree(ts, { renameLocals }).print(now)) {
    return { class: 'AST_REFACTOR', rule: 'syntax-tree', reason: 'the same exports and signatures; only layout, comments, local names or declaration order differ' };
  }
  return evolution('syntax-tree', describeDifference(moduleOutline(ts, old, renameLocals), moduleOutline(ts, now, renameLocals)));
}

/** The parsed file, or its first syntax error as `line N: message`. */
function parse(ts: typeof TS, name: string, text: string, kind: TS.ScriptKind): TS.SourceFile | string {
  const file = ts.createSourceFile(name, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, true, kind);
  // The parser's own diagnostics: not in the public typings, but the only report of a syntax error short of a Program.
  const diagnostics = (file as TS.SourceFile & { parseDiagnostics?: TS.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  if (diagnostics.length === 0) return file;
  const first = diagnostics[0];
  const { line } = file.getLineAndCharacterOfPosition(first.start);
  return `line ${line + 1}: ${ts.flattenDiagnosticMessageText(first.messageText, ' ')}`;
}
