import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';

/** The core's Logger port over the extension's one LogOutputChannel. */
export function loggerFor(channel: vscode.LogOutputChannel): Logger {
  return {
    info: (message) => channel.info(message),
    warn: (message) => channel.warn(message),
    error: (message) => channel.error(message),
  };
}
