import * as vscode from 'vscode';
import type { GovernedResult } from '../../core/flow/callRequest';
import type { Governor } from '../../core/governor';
import { toolError } from '../../core/toolError';
import { TOOLS } from '../../core/tools/toolRegistry';
import type { ToolDefinition } from '../../core/tools/toolDefinition';
import { abortSignalFor } from '../cancellationSignal';
import { lmToolName } from './lmToolManifest';

/** The governance session every VS Code language model tool call shares (the API gives no chat session id). */
export const LM_SESSION_ID = 'vscode-lm';
const LM_AGENT = { name: 'vscode-agent' };

/**
 * Registers every governed tool as a VS Code language model tool (contributed in package.json under the same
 * names). Each call goes through `governor.run` (execute); a refusal comes back as the tool_error JSON text rather
 * than a thrown error, so the model can read the code and act on it. With no folder open the tools answer
 * that there is nothing to govern.
 */
export function registerLanguageModelTools(governor: Governor | undefined): vscode.Disposable[] {
  return Object.values(TOOLS).map((definition) =>
    vscode.lm.registerTool<Record<string, unknown>>(lmToolName(definition.name), {
      prepareInvocation: (options) => ({ invocationMessage: invocationMessage(definition, options.input) }),
      async invoke(options, token) {
        if (!governor) return textResult([JSON.stringify(toolError('HOOK_ERROR', 'No folder is open in VS Code, so there is nothing to govern. Ask the user to open a folder.'))]);
        // The chat stopping the request cancels the call: a pending approval is dropped, a command killed.
        const cancellation = abortSignalFor(token);
        try {
          const result = await governor.run({ tool: definition.name, input: options.input, session_id: LM_SESSION_ID, agent: LM_AGENT }, { mode: 'execute', signal: cancellation.signal });
          return textResult(resultTexts(result));
        } finally {
          cancellation.dispose();
        }
      },
    }),
  );
}

/** The model reads the output text (or the refusal's JSON) first, then any context the hooks added. */
function resultTexts(result: GovernedResult): string[] {
  return [result.ok ? result.output.text : JSON.stringify(result.error, null, 2), ...result.context];
}

function textResult(texts: string[]): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult(texts.map((text) => new vscode.LanguageModelTextPart(text)));
}

/** `Intent Governor: Write file src/a.ts`: what the chat shows while the call runs. */
function invocationMessage(definition: ToolDefinition, input: Record<string, unknown> | undefined): string {
  const target = input?.path ?? input?.intent_id ?? input?.command;
  return `Intent Governor: ${definition.title}${typeof target === 'string' ? ` ${target}` : ''}`;
}
