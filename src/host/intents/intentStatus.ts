import type { IntentsSnapshot } from '../../core/intents/intent';

/** What the status bar shows; plain data so it can be computed and tested without VS Code. */
export interface IntentStatus {
  text: string;
  tooltip: string;
}

/** `$(shield) <intent-id>`, `$(shield) no intent`, or `$(error) intents invalid` while the file cannot be used. */
export function intentStatus(snapshot: IntentsSnapshot | undefined, pickedId: string | undefined): IntentStatus {
  if (snapshot && !snapshot.valid) {
    const count = snapshot.problems.length;
    return {
      text: '$(error) intents invalid',
      tooltip: `${snapshot.file} has ${count} problem${count === 1 ? '' : 's'} (see the Problems panel). Agents cannot change anything until it is fixed.`,
    };
  }
  if (pickedId === undefined) {
    return { text: '$(shield) no intent', tooltip: 'No active intent: agents must select one before changing anything. Click to pick one.' };
  }
  const intent = snapshot?.intents.find((candidate) => candidate.id === pickedId);
  const detail = intent ? `${intent.name} (${intent.status}); scope: ${intent.owned_scope.join(', ') || 'none'}` : 'not in the intents file any more';
  return { text: `$(shield) ${pickedId}`, tooltip: `Active intent ${pickedId}: ${detail}. Click to change it.` };
}
