import { fail, ok, toolError, type Result } from '../toolError';
import { applyProposedChange } from './fileChange';
import type { ToolDefinition } from './toolDefinition';
import { EXPECTED_HASH_PROPERTY, PATH_PROPERTY, pathFields } from './toolInput';

interface Edit {
  search: string;
  replace: string;
}

function occurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at >= 0 && count < 2; at = text.indexOf(search, at + 1)) count++;
  return count;
}

/** Applies exact search/replace blocks in order; each search must match exactly once in the text so far. */
export function applyEdits(path: string, current: string | undefined, edits: Edit[]): Result<string> {
  if (current === undefined) return fail(toolError('INVALID_INPUT', `${path} does not exist; create it with write_file.`, { field: 'path', path }));
  let text = current;
  for (const [index, edit] of edits.entries()) {
    const found = occurrences(text, edit.search);
    if (found !== 1) {
      const what = found === 0 ? 'was not found' : 'matches more than once';
      const hint = found === 0 ? 'read_file again and copy the exact text, including whitespace' : 'include more surrounding lines so it matches exactly once';
      return fail(toolError('INVALID_INPUT', `edits[${index}].search ${what} in ${path}; ${hint}.`, { field: `edits[${index}].search`, path, matches: found }));
    }
    const at = text.indexOf(edit.search);
    text = text.slice(0, at) + edit.replace + text.slice(at + edit.search.length);
  }
  return ok(text);
}

export const editFile: ToolDefinition = {
  name: 'edit_file',
  title: 'Edit file',
  description:
    'Changes part of an existing file with exact search/replace blocks, applied in order. Each search must match exactly once. Needs expected_content_hash from read_file (or a read in this session).',
  inputSchema: {
    type: 'object',
    properties: {
      path: PATH_PROPERTY,
      edits: {
        type: 'array',
        minItems: 1,
        maxItems: 100,
        items: {
          type: 'object',
          properties: {
            search: { type: 'string', minLength: 1, description: 'Exact text to find (must occur exactly once).' },
            replace: { type: 'string', description: 'Text to put in its place.' },
          },
          required: ['search', 'replace'],
          additionalProperties: false,
        },
      },
      expected_content_hash: EXPECTED_HASH_PROPERTY,
    },
    required: ['path', 'edits'],
    additionalProperties: false,
  },
  mutation: 'edit',
  paths: (input) => pathFields(input, [['path', 'write']]),
  propose: (input, current) => applyEdits(String(input.path), current, input.edits as Edit[]),
  execute: applyProposedChange,
};
