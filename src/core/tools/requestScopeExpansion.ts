import { fail, ok } from '../toolError';
import type { ToolDefinition } from './toolDefinition';

export const requestScopeExpansion: ToolDefinition = {
  name: 'request_scope_expansion',
  title: 'Request scope expansion',
  description:
    "Asks a human to add globs to the bound intent's owned_scope. On approval the intents file is updated and writes there are allowed.",
  inputSchema: {
    type: 'object',
    properties: {
      globs: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 256 }, description: "Workspace-relative globs, e.g. 'src/auth/**'." },
      reason: { type: 'string', minLength: 1, maxLength: 2000, description: 'Why the intent needs these paths; the human reads it.' },
    },
    required: ['globs', 'reason'],
    additionalProperties: false,
  },
  mutation: 'scope',
  async execute({ facts, services }) {
    const intent = await facts.boundIntent();
    if (!intent.ok) return fail(intent.error);
    const globs = facts.input.globs as string[];
    const updated = await services.intents.addScope(intent.value.id, globs);
    if (!updated.ok) return fail(updated.error);
    const scope = updated.value.valid ? updated.value.intents.find((i) => i.id === intent.value.id)?.owned_scope ?? [] : [];
    return ok({ text: `Approved. Intent '${intent.value.id}' now owns: ${scope.join(', ')}`, data: { intent_id: intent.value.id, owned_scope: scope } });
  },
};
