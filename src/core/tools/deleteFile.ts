import { fail, ok, toolError } from '../toolError';
import { applyProposedChange } from './fileChange';
import type { ToolDefinition } from './toolDefinition';
import { EXPECTED_HASH_PROPERTY, PATH_PROPERTY, pathFields } from './toolInput';

export const deleteFile: ToolDefinition = {
  name: 'delete_file',
  title: 'Delete file',
  description: 'Deletes a file after a human approves. Needs expected_content_hash from read_file (or a read in this session).',
  inputSchema: {
    type: 'object',
    properties: { path: PATH_PROPERTY, expected_content_hash: EXPECTED_HASH_PROPERTY },
    required: ['path'],
    additionalProperties: false,
  },
  mutation: 'delete',
  paths: (input) => pathFields(input, [['path', 'write']]),
  propose: (input, current) =>
    current === undefined ? fail(toolError('INVALID_INPUT', `${String(input.path)} does not exist.`, { field: 'path' })) : ok(null),
  execute: applyProposedChange,
};
