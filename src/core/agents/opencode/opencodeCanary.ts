import { firstLine, type AgentCanary } from '../common/canary';
import { isOurOpencodePlugin } from './opencodePlugin';

/**
 * OpenCode's canary: our plugin module, loaded as OpenCode loads it (its exported plugin called with the project's
 * directory), is handed a `write` in its `tool.execute.before` hook. Refused: the hook throws (OpenCode reports the
 * error to the model and does not run the tool); returning lets the tool run.
 */
export const opencodeCanary: AgentCanary = {
  door: { kind: 'plugin', hook: 'tool.execute.before', isOurs: isOurOpencodePlugin },
  payload: (call) => ({
    input: { tool: 'write', sessionID: call.sessionId, callID: call.callId },
    output: { args: { filePath: call.relativePath, content: call.content } },
  }),
  blocks(reply) {
    if (reply.via !== 'plugin') return { blocked: false, why: 'OpenCode is governed through its plugin only' };
    return reply.threw ? { blocked: true, reason: firstLine(reply.message) || 'the plugin threw' } : { blocked: false, why: 'the plugin returned without throwing: OpenCode runs the tool' };
  },
};
