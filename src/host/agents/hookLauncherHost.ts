import type * as vscode from 'vscode';
import { ensureHookLauncher, type LauncherChange } from '../../core/agents/common/hookLauncher';

/**
 * Points the per-user hook launcher (`<governor home>/bin/governor-hook`) at this version's `dist/hook.js`. The
 * extension's folder changes with each version, and agents' hook files name only the launcher, so every activation
 * rewrites it when it points elsewhere. Undefined on Windows (no sh launcher there) or when it cannot be written.
 */
export async function refreshHookLauncher(hookScript: string, log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>): Promise<LauncherChange | undefined> {
  if (process.platform === 'win32') return undefined;
  try {
    const change = await ensureHookLauncher(process.env, hookScript);
    if (change.action === 'written') log.info(`hook launcher ${change.file} now runs ${hookScript}`);
    return change;
  } catch (error) {
    log.warn(`could not write the hook launcher (${error instanceof Error ? error.message : String(error)}): agents' installed hooks refuse every call until it exists`);
    return undefined;
  }
}
