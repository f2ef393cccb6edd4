import type { PathUse } from '../pipeline/governedTool';

const WORKSPACE_ROOT_NAMES = new Set(['.', './']);

/** Path uses for the fields of an input that hold strings; missing fields name no path (the schema reports them). */
export function pathFields(input: Record<string, unknown>, fields: Array<[string, PathUse['purpose']]>): PathUse[] {
  const uses: PathUse[] = [];
  for (const [field, purpose] of fields) {
    const value = input[field];
    // '.' names the workspace root, which tools use directly (the canonicaliser never returns the root).
    if (typeof value === 'string' && !WORKSPACE_ROOT_NAMES.has(value)) uses.push({ field, path: value, purpose });
  }
  return uses;
}

/**
 * The most text one tool argument takes (write_file's content), in characters as JSON Schema counts them (code
 * points). The HTTP doors derive their body cap from it (requestBodyCap.ts), so a valid call always gets in.
 */
export const MAX_CONTENT_CHARS = 10 * 1024 * 1024;

export const PATH_PROPERTY = {
  type: 'string',
  minLength: 1,
  maxLength: 4096,
  description: "Workspace-relative path with '/' separators, e.g. 'src/app.ts'.",
} as const;

export const EXPECTED_HASH_PROPERTY = {
  type: 'string',
  pattern: '^sha256:[0-9a-f]{64}$',
  description: "The content_hash read_file returned for this file, proving the change is based on what is there now. Defaults to this session's last read.",
} as const;
