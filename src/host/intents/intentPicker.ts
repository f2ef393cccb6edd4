import * as vscode from 'vscode';
import type { Intent } from '../../core/intents/intent';
import { intentChoices, type IntentChoice } from './intentChoices';

type ChoiceItem = vscode.QuickPickItem & { choice?: IntentChoice };

const PLACEHOLDER = 'Pick the intent agents work under (only IN_PROGRESS intents can be selected)';

/**
 * Asks the human which intent agents work under. QuickPick has no disabled items, so the others are listed
 * under a separator with a slashed icon, and picking one keeps the picker open with the reason.
 */
export function pickIntent(intents: readonly Intent[], pickedId: string | undefined): Promise<string | undefined> {
  const choices = intentChoices(intents, pickedId);
  const items: ChoiceItem[] = [];
  for (const choice of choices) {
    if (!choice.selectable && !items.some((item) => item.kind === vscode.QuickPickItemKind.Separator)) {
      items.push({ label: 'not selectable', kind: vscode.QuickPickItemKind.Separator });
    }
    items.push({
      label: `${choice.selectable ? '$(shield)' : '$(circle-slash)'} ${choice.label}`,
      description: choice.description,
      detail: choice.detail,
      choice,
    });
  }
  const picker = vscode.window.createQuickPick<ChoiceItem>();
  picker.title = 'Intent Governor: Select Active Intent';
  picker.placeholder = PLACEHOLDER;
  picker.matchOnDescription = true;
  picker.matchOnDetail = true;
  picker.items = items;
  const current = items.find((item) => item.choice?.id === pickedId && item.choice?.selectable);
  if (current) picker.activeItems = [current];

  return new Promise((resolve) => {
    let picked: string | undefined;
    picker.onDidAccept(() => {
      const choice = picker.selectedItems[0]?.choice;
      if (!choice) return;
      if (!choice.selectable) {
        picker.placeholder = choice.reason ?? PLACEHOLDER;
        picker.value = '';
        return;
      }
      picked = choice.id;
      picker.hide();
    });
    picker.onDidHide(() => {
      picker.dispose();
      resolve(picked);
    });
    picker.show();
  });
}
