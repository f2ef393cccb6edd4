import { mutationEventFor } from '../pipeline/mutationEvent';
import type { PostHook } from '../pipeline/hookTypes';

/**
 * Hands every change the write path did not already record ahead (commands, agents' native tools) to the
 * trace, and every refusal, rejection or failure to the governance log.
 */
export const traceRecorder: PostHook = {
  name: 'trace-recorder',
  async run({ call, facts, outcome }) {
    const { services } = facts;
    if (outcome.status === 'success') {
      if (outcome.output.recorded) return;
      const event = await mutationEventFor(facts, outcome.output.changes ?? [], outcome.approval, outcome.recordAs);
      if (event) await services.trace.recordMutation(event);
      return;
    }
    const paths = await facts.paths();
    await services.trace.recordGovernance({
      timestamp: services.clock().toISOString(),
      invocation_id: call.invocation_id,
      session_id: call.session_id,
      agent: call.agent,
      tool: call.tool,
      intent_id: services.sessions.boundIntentId(call.session_id),
      decision: outcome.error.code === 'HITL_REJECT' ? 'reject' : outcome.status === 'blocked' ? 'deny' : 'error',
      code: outcome.error.code,
      message: outcome.error.message,
      paths: paths.ok ? paths.value.map((p) => p.rel) : [],
      approver: outcome.approval?.approver,
    });
  },
};
