import { decodeText } from '../pipeline/callFacts';
import { contentHash } from '../contentHash';
import { fail, ok, toolError } from '../toolError';
import type { ToolDefinition } from './toolDefinition';
import { PATH_PROPERTY, pathFields } from './toolInput';

export const readFile: ToolDefinition = {
  name: 'read_file',
  title: 'Read file',
  description: 'Reads a workspace file. Returns its text and content_hash; pass that hash as expected_content_hash when you change the file.',
  inputSchema: { type: 'object', properties: { path: PATH_PROPERTY }, required: ['path'], additionalProperties: false },
  mutation: 'none',
  paths: (input) => pathFields(input, [['path', 'read']]),
  async execute({ facts, services }) {
    const target = await facts.target();
    if (!target.ok) return fail(target.error);
    const { abs, rel } = target.value;
    const info = await services.workspace.entryInfo(abs);
    if (!info || info.kind !== 'file') {
      return fail(toolError('INVALID_INPUT', `${rel} ${info ? 'is not a file' : 'does not exist'}. Use list_files to see what is there.`, { field: 'path', path: rel }));
    }
    if (info.size > services.policy.maxReadBytes) {
      return fail(toolError('INVALID_INPUT', `${rel} is ${info.size} bytes, more than the ${services.policy.maxReadBytes}-byte read limit.`, { field: 'path', path: rel, size: info.size }));
    }
    const bytes = await facts.current(abs);
    if (bytes === undefined) return fail(toolError('INVALID_INPUT', `${rel} disappeared while reading; try again.`, { path: rel }));
    const hash = contentHash(bytes);
    const content = decodeText(bytes) ?? '';
    return ok({ text: `${rel} (${bytes.byteLength} bytes, content_hash ${hash})\n\n${content}`, data: { path: rel, content, content_hash: hash, size: bytes.byteLength } });
  },
};
