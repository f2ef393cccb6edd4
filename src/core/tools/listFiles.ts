import { fail, ok, toolError } from '../toolError';
import type { ToolDefinition } from './toolDefinition';
import { PATH_PROPERTY, pathFields } from './toolInput';

export const listFiles: ToolDefinition = {
  name: 'list_files',
  title: 'List files',
  description: 'Lists files under a workspace directory (default: the root). Recursive listings skip .git and node_modules.',
  inputSchema: {
    type: 'object',
    properties: { path: PATH_PROPERTY, recursive: { type: 'boolean', description: 'Include subdirectories (default false).' } },
    additionalProperties: false,
  },
  mutation: 'none',
  paths: (input) => pathFields(input, [['path', 'read']]),
  async execute({ facts, services, call }) {
    const paths = await facts.paths();
    if (!paths.ok) return fail(paths.error);
    const target = { abs: services.workspace.root, rel: '', ...paths.value.find((p) => p.field === 'path') };
    const info = await services.workspace.entryInfo(target.abs);
    if (info?.kind !== 'directory') {
      return fail(toolError('INVALID_INPUT', `${target.rel || '.'} is not a directory.`, { field: 'path', path: target.rel }));
    }
    const listing = await services.workspace.listFiles(target.abs, { recursive: call.input.recursive === true, limit: services.policy.maxListedFiles });
    const more = listing.truncated ? `\n(first ${listing.files.length} files shown; list a subdirectory for the rest)` : '';
    return ok({ text: `${listing.files.join('\n') || '(no files)'}${more}`, data: { files: listing.files, truncated: listing.truncated } });
  },
};
