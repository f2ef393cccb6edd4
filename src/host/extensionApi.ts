import * as vscode from 'vscode';
import type { DecisionReport, GovernedResult, ToolCallRequest } from '../core/flow/callRequest';
import type { Governor } from '../core/governor';
import type { JsonlTraceSink, RecordedNotice } from '../core/trace/traceWriter';
import type { IntentRow } from './intents/intentsTree';

export type { IntentRow, RecordedNotice };

/**
 * What `activate` returns: the extension's public API for other extensions
 * (`vscode.extensions.getExtension('intent-governor.intent-governor')?.exports`) and for the in-host tests.
 * Undefined when no folder is open, because there is nothing to govern.
 *
 * Every change goes through the governed pipeline: no port (workspace, trace, sessions, policy) is handed out,
 * because any extension can read this object and would otherwise write around governance.
 */
export interface IntentGovernorApi {
  /** Runs one tool call through the whole pipeline (validation, hooks, human approval, tool, trace). */
  call(request: ToolCallRequest): Promise<GovernedResult>;
  /** What the pre-hook chain would decide for a call, without running it, asking anyone or tracing it. */
  decide(request: ToolCallRequest): Promise<DecisionReport>;
  /** Fires once a trace or governance record stands (acknowledged; a write-ahead record once its change landed). */
  readonly onDidRecord: vscode.Event<RecordedNotice>;
  /** The governed tools' names (`write_file`, …); their schemas are on `vscode.lm.tools`. */
  toolNames(): string[];
  /** The status bar text as shown, e.g. `$(shield) auth-refactor`, `$(shield) no intent`, `$(error) intents invalid`. */
  statusText(): string;
  /** The MCP server's URL (`http://127.0.0.1:<port>/mcp`), or undefined when it could not start. */
  mcpUrl(): string | undefined;
  /** The running hooks' status bar text, e.g. `$(sync~spin) Checking for secrets`; empty while no hook runs. */
  hookStatusText(): string;
  /** What the Intents view shows: each intent's status, scope, counts from the trace and whether it is the human's. */
  intentsView(): Promise<IntentRow[]>;
}

export interface ExtensionApiParts {
  governor: Governor;
  trace: JsonlTraceSink;
  statusText: () => string;
  mcpUrl: () => string | undefined;
  hookStatusText: () => string;
  intentsView?: () => Promise<IntentRow[]>;
}

/** The facade `activate` returns; its event and trace listener are disposed with the extension. */
export function createExtensionApi(subscriptions: vscode.Disposable[], parts: ExtensionApiParts): IntentGovernorApi {
  const { governor } = parts;
  const recorded = new vscode.EventEmitter<RecordedNotice>();
  const stopListening = parts.trace.onRecorded((notice) => recorded.fire(notice));
  subscriptions.push(recorded, { dispose: stopListening });
  // Frozen: another extension cannot swap a member for its own and change what the next caller gets.
  return Object.freeze({
    call: (request: ToolCallRequest) => governor.run(request, { mode: 'execute' }),
    decide: (request: ToolCallRequest) => governor.run(request, { mode: 'judge' }),
    onDidRecord: recorded.event,
    toolNames: () => governor.tools().map((tool) => tool.name),
    statusText: () => parts.statusText(),
    mcpUrl: () => parts.mcpUrl(),
    hookStatusText: () => parts.hookStatusText(),
    intentsView: () => parts.intentsView?.() ?? Promise.resolve([]),
  });
}
