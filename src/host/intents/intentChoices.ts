import type { Intent } from '../../core/intents/intent';

/** One row of the intent picker, as plain data (the picker turns it into a QuickPickItem). */
export interface IntentChoice {
  id: string;
  label: string;
  description: string;
  detail: string;
  /** Only IN_PROGRESS intents can be bound for writes, so only they can be picked. */
  selectable: boolean;
  /** Why it cannot be picked, shown when the human tries anyway. */
  reason?: string;
}

/** Selectable intents first (file order), then the rest, each saying why it cannot be picked. */
export function intentChoices(intents: readonly Intent[], pickedId: string | undefined): IntentChoice[] {
  const choices = intents.map((intent): IntentChoice => {
    const selectable = intent.status === 'IN_PROGRESS';
    const scope = intent.owned_scope.length ? intent.owned_scope.join(', ') : 'no owned scope';
    const current = intent.id === pickedId ? ' · active now' : '';
    return {
      id: intent.id,
      label: intent.id,
      description: intent.name,
      detail: `${intent.status} · ${scope}${current}`,
      selectable,
      ...(!selectable && { reason: `${intent.id} is ${intent.status}; only IN_PROGRESS intents can be selected. Set its status to IN_PROGRESS in the intents file first.` }),
    };
  });
  return [...choices.filter((c) => c.selectable), ...choices.filter((c) => !c.selectable)];
}
