import { AGENTS } from '../agents/registry';
import type { BridgeRequest } from '../agents/common/nativeCall';

/**
 * Whether a request that came over POST /hook speaks as an agent door would: every door (the hook command, the
 * Node hook handing a call to a starting resident, Claude Code's resident hook tool) builds its request from an
 * agent's dialect (hookDoor.ts), so its agent is that dialect's name with nothing else, its session
 * `<dialect>:<agent's session>`, and a tool call's key lies in that session. A token holder writing its own request
 * could name any agent or model, or a key of another session; refused here, before the bridge sees it, as any
 * malformed request is. Undefined when it is well formed; else what is wrong.
 */
export function routedIdentityProblem(request: BridgeRequest): string | undefined {
  const agent = AGENTS.find((candidate) => candidate.dialect.agentName === request.agent.name);
  if (!agent) return `agent ${JSON.stringify(request.agent.name)} is not one an agent door sends`;
  // A door sends the agent's name only: a model id would be recorded as the contributor's, and no door knows one.
  if (Object.keys(request.agent).some((key) => key !== 'name')) return 'agent carries more than the name an agent door sends';
  const dialect = agent.dialect.id;
  if (!request.session_id.startsWith(`${dialect}:`)) return `session_id must be ${dialect}:<the agent's session>`;
  if (request.native !== undefined && (request.native.dialect !== dialect || request.session_id !== `${dialect}:${request.native.session_id}`)) return "native must be the agent's own event, in its session";
  if ((request.phase === 'pre' || request.phase === 'post') && !request.key.startsWith(`${request.session_id}:`)) return "a tool call's key must lie in its session";
  return undefined;
}
