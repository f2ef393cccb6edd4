import type { Governor } from '../core/governor';
import type { GovernorServices } from '../core/governorServices';

/**
 * What `activate` returns: the extension's public API for other extensions
 * (`vscode.extensions.getExtension('intent-governor.intent-governor')?.exports`) and for the in-host tests.
 * Undefined when no folder is open, because there is nothing to govern.
 */
export interface IntentGovernorApi {
  /** The one pipeline; other extensions route their agents' tool calls through `governor.call`. */
  readonly governor: Governor;
  /** The ports the governor runs against (workspace, intents, sessions, trace, policy…). */
  readonly services: GovernorServices;
  /** The status bar text as shown, e.g. `$(shield) auth-refactor`, `$(shield) no intent`, `$(error) intents invalid`. */
  statusText(): string;
  /** The MCP server's URL (`http://127.0.0.1:<port>/mcp`), or undefined when it could not start. */
  mcpUrl(): string | undefined;
}
