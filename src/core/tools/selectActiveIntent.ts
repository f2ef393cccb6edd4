import { renderIntentContext } from '../intents/intentContext';
import { resolveIntentForWrites } from '../intents/intentResolution';
import { fail, ok } from '../toolError';
import type { ToolDefinition } from './toolDefinition';

export const selectActiveIntent: ToolDefinition = {
  name: 'select_active_intent',
  title: 'Select active intent',
  description:
    'Binds this session to an IN_PROGRESS intent before any change. Returns its constraints, acceptance criteria and owned scope: follow them.',
  inputSchema: {
    type: 'object',
    properties: { intent_id: { type: 'string', minLength: 1, maxLength: 200, description: 'The id of an IN_PROGRESS intent (see list_intents).' } },
    required: ['intent_id'],
    additionalProperties: false,
  },
  mutation: 'none',
  async execute({ call, facts, services }) {
    const intent = resolveIntentForWrites(await facts.intents(), String(call.input.intent_id));
    if (!intent.ok) return fail(intent.error);
    services.sessions.bindIntent(call.session_id, intent.value.id);
    return ok({ text: renderIntentContext(intent.value), data: { intent: intent.value } });
  },
};
