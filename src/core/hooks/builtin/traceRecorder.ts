import type { MutationClass } from '../../trace/traceSink';
import type { PostHook } from '../hookTypes';

const MUTATION_CLASS: Partial<Record<string, MutationClass>> = { write: 'write', edit: 'edit', delete: 'delete', command: 'command' };

/** Hands every change to the trace, and every refusal, rejection or failure to the governance log. */
export const traceRecorder: PostHook = {
  name: 'trace-recorder',
  async run({ call, facts, outcome }) {
    const { services, definition } = facts;
    const intentId = services.sessions.boundIntentId(call.session_id);
    const about = { timestamp: services.clock().toISOString(), invocation_id: call.invocation_id, session_id: call.session_id, agent: call.agent, tool: call.tool };
    if (outcome.status === 'success') {
      const mutationClass = MUTATION_CLASS[definition.mutation];
      const files = outcome.output.changes ?? [];
      if (!mutationClass || files.length === 0 || intentId === undefined) return;
      const intent = await facts.boundIntent();
      await services.trace.recordMutation({
        ...about,
        intent_id: intentId,
        intent_scope: intent.ok ? [...intent.value.owned_scope] : undefined,
        mutation_class: mutationClass,
        files,
        decision: outcome.approval?.approved ? 'approved' : 'allow',
        approver: outcome.approval?.approver,
      });
      return;
    }
    const paths = await facts.paths();
    await services.trace.recordGovernance({
      ...about,
      intent_id: intentId,
      decision: outcome.error.code === 'HITL_REJECT' ? 'reject' : outcome.status === 'blocked' ? 'deny' : 'error',
      code: outcome.error.code,
      message: outcome.error.message,
      paths: paths.ok ? paths.value.map((p) => p.rel) : [],
      approver: outcome.approval?.approver,
    });
  },
};
