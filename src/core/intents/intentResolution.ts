import { fail, ok, toolError, type Result } from '../toolError';
import type { Intent, IntentsSnapshot } from './intent';
import { formatProblem } from './intentsFile';

function activeIds(intents: Intent[]): string {
  const ids = intents.filter((i) => i.status === 'IN_PROGRESS').map((i) => i.id);
  return ids.length ? ids.join(', ') : '(none: a human must set an intent to IN_PROGRESS first)';
}

/** Refuses everything while the intents file is broken: governance fails closed until a human fixes it. */
export function requireValidIntents(snapshot: IntentsSnapshot): Result<Intent[]> {
  if (snapshot.valid) return ok(snapshot.intents);
  const shown = snapshot.problems.slice(0, 5).map(formatProblem);
  const more = snapshot.problems.length > shown.length ? `\n…and ${snapshot.problems.length - shown.length} more` : '';
  return fail(
    toolError(
      'INTENTS_FILE_INVALID',
      `The intents file is invalid, so no changes are allowed until a human fixes it:\n${shown.join('\n')}${more}`,
      { file: snapshot.file, problems: snapshot.problems },
    ),
  );
}

/** The intent `intentId` names, if it may be bound for writes (exists and is IN_PROGRESS). */
export function resolveIntentForWrites(snapshot: IntentsSnapshot, intentId: string | undefined): Result<Intent> {
  const valid = requireValidIntents(snapshot);
  if (!valid.ok) return valid;
  const intents = valid.value;
  if (intentId === undefined) {
    return fail(
      toolError(
        'NO_ACTIVE_INTENT',
        `No intent is selected for this session. Call select_active_intent with one of: ${activeIds(intents)}.`,
        { active_intents: intents.filter((i) => i.status === 'IN_PROGRESS').map((i) => i.id) },
      ),
    );
  }
  const intent = intents.find((i) => i.id === intentId);
  if (!intent) {
    return fail(
      toolError('INTENT_NOT_FOUND', `No intent '${intentId}' in ${snapshot.file}. Choose one of: ${activeIds(intents)}.`, {
        intent_id: intentId,
      }),
    );
  }
  if (intent.status !== 'IN_PROGRESS') {
    return fail(
      toolError(
        'INTENT_NOT_ACTIVE',
        `Intent '${intent.id}' is ${intent.status}; only IN_PROGRESS intents allow changes. Ask a human to move it to IN_PROGRESS, or choose one of: ${activeIds(intents)}.`,
        { intent_id: intent.id, status: intent.status },
      ),
    );
  }
  return ok(intent);
}
