import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { evolution, type ChangeClass } from './changeClass';

export type DataLanguage = 'json' | 'yaml';

export const DATA_LANGUAGES = new Map<string, DataLanguage>([
  ['.json', 'json'],
  ['.yaml', 'yaml'],
  ['.yml', 'yaml'],
]);

/**
 * JSON and YAML files are data: the same value (objects compared without regard to key order, which
 * neither format gives meaning to) is a refactoring, whatever the layout, quoting or comments.
 */
export function dataValueRule(language: DataLanguage, before: string, after: string): ChangeClass {
  const old = parse(language, before);
  const now = parse(language, after);
  if (!now.ok) return evolution('data-value', `the new ${language.toUpperCase()} does not parse (${now.message})`);
  if (!old.ok) return evolution('data-value', `the old ${language.toUpperCase()} did not parse (${old.message})`);
  if (!isDeepStrictEqual(sortKeys(old.value), sortKeys(now.value))) return evolution('data-value', `the ${language.toUpperCase()} value changes`);
  return { class: 'AST_REFACTOR', rule: 'data-value', reason: `the same ${language.toUpperCase()} value; only layout, quoting, comments or key order differ` };
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

function parse(language: DataLanguage, text: string): Parsed {
  if (language === 'json') {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  }
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents)) return { ok: true, value: [] };
  const failed = documents.find((d) => d.errors.length > 0);
  if (failed) return { ok: false, message: failed.errors[0].message.split('\n')[0] };
  return { ok: true, value: documents.map((d) => d.toJS({ maxAliasCount: 100 })) };
}

/** Objects rebuilt with sorted keys, so two values differing only in key order compare equal. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value instanceof Map) return sortKeys(Object.fromEntries(value));
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array)) {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortKeys(record[key])]));
  }
  return value;
}
