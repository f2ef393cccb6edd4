import { requireValidIntents } from '../intents/intentResolution';
import { fail, ok } from '../toolError';
import type { ToolDefinition } from './toolDefinition';

export const listIntents: ToolDefinition = {
  name: 'list_intents',
  title: 'List intents',
  description: 'Lists the intents in the plan (.orchestration/active_intents.yaml) with status and owned scope. Only IN_PROGRESS intents can be selected for changes.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  mutation: 'none',
  async execute({ facts }) {
    const intents = requireValidIntents(await facts.intents());
    if (!intents.ok) return fail(intents.error);
    const lines = intents.value.map((i) => `- ${i.id} [${i.status}] ${i.name}; scope: ${i.owned_scope.join(', ') || '(none)'}`);
    const text = lines.length
      ? `Intents (select an IN_PROGRESS one with select_active_intent):\n${lines.join('\n')}`
      : 'The plan has no intents yet. Ask the user to add one to .orchestration/active_intents.yaml.';
    return ok({ text, data: { intents: intents.value } });
  },
};
