import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import type { CallFacts } from '../pipeline/callFacts';
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
    // What was asked stays readable in the log: a command's own text and the files it names (`rm -rf src/auth`).
    const command = call.tool === 'run_command' && typeof call.input.command === 'string' ? call.input.command : undefined;
    const named = [...new Set([...(paths.ok ? paths.value.map((p) => p.rel) : []), ...(command !== undefined ? commandTargets(facts) : [])])];
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
      paths: named,
      approver: outcome.approval?.approver,
      ...(command !== undefined ? { command } : {}),
    });
  },
};

/** The files a command names as written, workspace-relative where they are inside (as the command's cwd places them). */
function commandTargets(facts: CallFacts): string[] {
  const root = facts.services.workspace.root;
  const cwd = typeof facts.input.cwd === 'string' ? resolve(root, facts.input.cwd) : root;
  return facts.command().writeTargets.map((target) => {
    const abs = isAbsolute(target) ? target : resolve(cwd, target);
    const rel = relative(root, abs);
    return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split(sep).join(posix.sep);
  });
}
