import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { notSandboxedNotice, type SandboxAvailability } from '../core/sandbox/sandboxAvailability';
import { announceSandbox } from '../core/sandbox/sandboxOf';

/** The part of vscode.StatusBarItem the sandbox notice drives; a type only, so it is tested in plain Node. */
export type SandboxStatusItem = Pick<vscode.StatusBarItem, 'name' | 'text' | 'tooltip' | 'command' | 'backgroundColor' | 'show' | 'hide' | 'dispose'>;

/**
 * `$(warning) Not sandboxed` in the status bar where no sandbox can start, its tooltip saying why and how to
 * install one; clicking it runs Check Agent Hooks (governor doctor). Hidden where commands are confined.
 */
export class SandboxStatusBar {
  constructor(
    private readonly item: SandboxStatusItem,
    private readonly warningBackground: vscode.ThemeColor,
  ) {
    this.item.name = 'Intent Governor: command sandbox';
  }

  get text(): string {
    return this.item.text;
  }

  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  show(sandbox: SandboxAvailability): void {
    const notice = notSandboxedNotice(sandbox);
    if (!notice) {
      this.item.hide();
      return;
    }
    this.item.text = '$(warning) Not sandboxed';
    this.item.tooltip = `${notice}\nUntil then the text policy is the only check, and what it cannot read asks. Click to run Check Agent Hooks.`;
    this.item.command = 'intentGovernor.doctor';
    this.item.backgroundColor = this.warningBackground;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

/**
 * Says at startup, once, whether commands run confined: the log line (the first command does not repeat it) and,
 * where no sandbox can start, the status bar's warning. The probe runs after activation returns, so it adds no
 * time to it; a probe that fails is shown as no sandbox, since commands then run with the text policy alone.
 */
export async function announceSandboxAtStartup(detect: () => Promise<SandboxAvailability>, logger: Logger, bar: SandboxStatusBar): Promise<SandboxAvailability> {
  const sandbox = await detect().catch(
    (error: unknown): SandboxAvailability => ({ kind: 'unavailable', reason: `the sandbox could not be probed (${error instanceof Error ? error.message : String(error)})`, install: 'run Check Agent Hooks (governor doctor) to see why' }),
  );
  announceSandbox(sandbox, logger);
  bar.show(sandbox);
  return sandbox;
}
