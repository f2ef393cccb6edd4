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

/** A change to several files is a refactoring only if every file's is; the first evolving file decides. */
export function classifyChanges(files: ClassifiedFile[]): ChangeClass {
  return aggregateChangeClass(files.map((file) => ({ path: file.path, verdict: classifyChange(file) })));
}

/** The class of a whole change from each file's. */
export function aggregateChangeClass(classes: { path: string; verdict: ChangeClass }[]): ChangeClass {
  const evolving = classes.find((c) => c.verdict.class === 'INTENT_EVOLUTION');
  if (evolving) return classes.length === 1 ? evolving.verdict : { ...evolving.verdict, reason: `${evolving.path}: ${evolving.verdict.reason}` };
  if (classes.length === 0) return evolution('unchanged', 'no file changed');
  return classes.length === 1 ? classes[0].verdict : { ...classes[0].verdict, reason: `${classes.length} files: ${classes[0].verdict.reason}` };
}
