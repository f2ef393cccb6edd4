import type * as vscode from 'vscode';
import type { HookStatus } from '../../core/userHooks/hookExecution';

/** The part of vscode.StatusBarItem the hook status drives; a type only, so it is tested in plain Node with a fake. */
export type StatusItem = Pick<vscode.StatusBarItem, 'text' | 'tooltip' | 'show' | 'hide' | 'dispose'>;

/**
 * Shows `$(sync~spin) <statusMessage>` while at least one hook runs. Concurrent hooks stack: the newest message
 * is shown with how many others run, all of them in the tooltip; when one ends the item shows what still runs.
 */
export class HookStatusBar implements HookStatus {
  private readonly running: { message: string }[] = [];
  private disposed = false;

  constructor(private readonly item: StatusItem) {}

  /** What the item says now; empty while no hook runs. */
  get text(): string {
    return this.item.text;
  }

  show(message: string): { dispose(): void } {
    // Its own object, not the message: two hooks with the same message each end only themselves.
    const entry = { message: oneLine(message) };
    this.running.push(entry);
    this.render();
    let ended = false;
    return {
      dispose: () => {
        if (ended) return;
        ended = true;
        const index = this.running.indexOf(entry);
        if (index >= 0) this.running.splice(index, 1);
        this.render();
      },
    };
  }

  dispose(): void {
    this.disposed = true;
    this.running.length = 0;
    this.item.dispose();
  }

  private render(): void {
    if (this.disposed) return;
    const newest = this.running.at(-1);
    if (!newest) {
      this.item.hide();
      this.item.text = '';
      this.item.tooltip = undefined;
      return;
    }
    const others = this.running.length - 1;
    this.item.text = `$(sync~spin) ${newest.message}${others > 0 ? ` (+${others})` : ''}`;
    this.item.tooltip = `Intent Governor hooks running:\n${this.running.map((each) => `• ${each.message}`).join('\n')}`;
    this.item.show();
  }
}

/** A status bar item is one line; a message with line breaks (or a very long one) would be cut by the bar anyway. */
function oneLine(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
