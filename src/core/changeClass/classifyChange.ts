import { extname } from 'node:path';
import { evolution, type ChangeClass, type ClassifiedFile } from './changeClass';
import { dataValueRule, DATA_LANGUAGES } from './dataValueRule';
import { diffShapeRule } from './diffShapeRule';
import { syntaxTreeRule, SYNTAX_TREE_EXTENSIONS } from './syntaxTreeRule';

/**
 * Comparing a 200 KiB TypeScript file took 0.3-1 s on a 2-core machine; past this a write (and the extension
 * host) would wait too long, so a larger file's change is evolution unread. Sources this large are mostly generated.
 */
export const MAX_CLASSIFIED_CHARS = 256 * 1024;

/** The class of one file's change, from the rule its extension selects. */
export function classifyChange(file: ClassifiedFile): ChangeClass {
  const { before, after } = file;
  if (before === undefined && after === undefined) return evolution('unchanged', 'the file exists neither before nor after');
  if (before === undefined) return evolution('created', 'creates the file');
  if (after === undefined) return evolution('deleted', 'deletes the file');
  if (before === after) return { class: 'AST_REFACTOR', rule: 'unchanged', reason: 'the content is the same' };
  if (before.length > MAX_CLASSIFIED_CHARS || after.length > MAX_CLASSIFIED_CHARS) {
    return evolution('too-large', `a version is over ${MAX_CLASSIFIED_CHARS / 1024} KiB, too large to compare`);
  }
  const extension = extname(file.path).toLowerCase();
  const data = DATA_LANGUAGES.get(extension);
  const rule = SYNTAX_TREE_EXTENSIONS.has(extension) ? 'syntax-tree' : data ? 'data-value' : 'diff-shape';
  try {
    if (rule === 'syntax-tree') return syntaxTreeRule(extension, before, after);
    if (data) return dataValueRule(data, before, after);
    return diffShapeRule(extension, before, after);
  } catch (error) {
    // A parser that cannot be loaded, or a tree nested past the stack: undecided, so evolution, never a failed write.
    return evolution(rule, `could not be compared (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** All the files of one change (a command's writes): more than this in all, and the rest is not compared. */
export const MAX_CHANGE_CHARS = 1024 * 1024;

/**
 * A change to several files is a refactoring only if every file's is: the first evolving file decides (and
 * is named), and the files after it are not compared. `classify` lets a caller reuse verdicts it already has.
 */
export function classifyChanges(files: ClassifiedFile[], classify: (file: ClassifiedFile) => ChangeClass = classifyChange): ChangeClass {
  const named = (path: string, verdict: ChangeClass) => (files.length === 1 ? verdict : { ...verdict, reason: `${path}: ${verdict.reason}` });
  let total = 0;
  let first: ChangeClass | undefined;
  for (const file of files) {
    total += (file.before?.length ?? 0) + (file.after?.length ?? 0);
    if (total > MAX_CHANGE_CHARS) return named(file.path, evolution('too-large', `the change is over ${MAX_CHANGE_CHARS / 1024} KiB in all, too large to compare`));
    const verdict = classify(file);
    if (verdict.class === 'INTENT_EVOLUTION') return named(file.path, verdict);
    first ??= verdict;
  }
  if (!first) return evolution('unchanged', 'no file changed');
  return files.length === 1 ? first : { ...first, reason: `${files.length} files: ${first.reason}` };
}
