import { ok } from '../toolError';
import { applyProposedChange } from './fileChange';
import type { ToolDefinition } from './toolDefinition';
import { EXPECTED_HASH_PROPERTY, MAX_CONTENT_CHARS, PATH_PROPERTY, pathFields } from './toolInput';

export const writeFile: ToolDefinition = {
  name: 'write_file',
  title: 'Write file',
  description:
    'Creates a file or replaces its whole content. Replacing an existing file needs expected_content_hash from your read_file (or a read in this session).',
  inputSchema: {
    type: 'object',
    properties: {
      path: PATH_PROPERTY,
      content: { type: 'string', maxLength: MAX_CONTENT_CHARS, description: 'The complete new content.' },
      expected_content_hash: EXPECTED_HASH_PROPERTY,
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  mutation: 'write',
  paths: (input) => pathFields(input, [['path', 'write']]),
  propose: (input) => ok(String(input.content)),
  execute: applyProposedChange,
};
