/**
 * What a change means (seed 001): `AST_REFACTOR` when the structure changed but the behaviour is meant to stay,
 * `INTENT_EVOLUTION` for new or changed behaviour, and whenever the rule cannot tell.
 */
export type ChangeClassName = 'AST_REFACTOR' | 'INTENT_EVOLUTION';

export const CHANGE_CLASSES: readonly ChangeClassName[] = ['AST_REFACTOR', 'INTENT_EVOLUTION'];

/**
 * Which rule decided:
 * - `syntax-tree`: TypeScript or JavaScript parsed by the `typescript` package, the trees compared.
 * - `data-value`: JSON or YAML parsed, the values compared.
 * - `diff-shape`: any other file, by the shape of its changed lines (no parser).
 * - `created`, `deleted`, `unchanged`: no content to compare, or nothing changed.
 * - `too-large`: a version over MAX_CLASSIFIED_CHARS (classifyChange.ts), not read.
 */
export type ChangeClassRule = 'syntax-tree' | 'data-value' | 'diff-shape' | 'created' | 'deleted' | 'unchanged' | 'too-large';

export interface ChangeClass {
  class: ChangeClassName;
  rule: ChangeClassRule;
  /** For a person: what made it one or the other (`changes the signature of exported \`login\``). */
  reason: string;
}

/** One file's content before and after (undefined: absent). */
export interface ClassifiedFile {
  path: string;
  before?: string;
  after?: string;
}

export function evolution(rule: ChangeClassRule, reason: string): ChangeClass {
  return { class: 'INTENT_EVOLUTION', rule, reason };
}
