import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { claudeDialect } from '../core/agents/claude/claudeDialect';
import { RESIDENT_HOOK_FIELDS, RESIDENT_HOOK_TOOL } from '../core/agents/claude/residentHook';
import type { ExtraTool } from '../core/mcp/governedMcpServer';
import type { CliIO } from './cliCommand';
import { answerHookPayload, type HeadlessDecider, type HookOptions } from './hookFlow';

/** Fields that carry JSON (objects) rather than text. */
const JSON_FIELDS = new Set(['tool_input', 'tool_response']);

/** A hook input rebuilt from the interpolated strings; an unreadable object is left out (the parser then refuses it). */
export function hookPayloadFrom(args: Record<string, unknown>): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(args)) {
    if (value === '' || value === undefined || value === null) continue;
    if (!JSON_FIELDS.has(field) || typeof value !== 'string') {
      payload[field] = value;
      continue;
    }
    try {
      payload[field] = JSON.parse(value) as unknown;
    } catch {
      payload[field] = value; // a tool_response may be plain text
    }
  }
  return payload;
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/**
 * The tool Claude Code's hooks call in the resident governor: the hook input goes through the same flow as
 * `governor hook claude` (map, judge, answer in Claude's words), in this long-lived process, with its session.
 * The answer is the text Claude reads like a command hook's stdout. A failure is a refusal for a tool call and
 * an error (which `onFailure: "block"` turns into a block) for any other event: never an allow.
 */
export function residentHookTool(settings: { options: (signal: AbortSignal) => HookOptions; io: Pick<CliIO, 'cwd' | 'env'>; decide: HeadlessDecider }): ExtraTool {
  return {
    tool: {
      name: RESIDENT_HOOK_TOOL,
      description: "Answers Claude Code's hook events for Intent Governor. Called by hooks; not for the model.",
      inputSchema: { type: 'object', properties: Object.fromEntries(RESIDENT_HOOK_FIELDS.map((f) => [f, { type: 'string' }])) },
      annotations: { readOnlyHint: true },
    },
    async call(args, signal) {
      const payload = hookPayloadFrom(args);
      const reply = await answerHookPayload(claudeDialect, payload, settings.options(signal), settings.io, settings.decide);
      if (reply.exitCode === 0) return text(reply.stdout.trim() || '{}');
      const reason = reply.stderr.trim() || 'Intent Governor could not check this call, so it is refused (fail closed).';
      if (payload.hook_event_name === 'PreToolUse') {
        return text(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }));
      }
      return { isError: true, content: [{ type: 'text', text: reason }] };
    },
  };
}
