import { classifyChanges } from '../changeClass/classifyChange';
import type { MutationClass, MutationEvent, TraceApproval, TraceStanding } from '../trace/traceSink';
import type { ApprovalDecision } from '../approval/approver';
import type { CallFacts } from './callFacts';
import type { AppliedChange, RecordAs } from './hookTypes';

const MUTATION_CLASS: Partial<Record<string, MutationClass>> = { write: 'write', edit: 'edit', delete: 'delete', command: 'command' };

/**
 * The trace event for a call's changes, whether the write path records it ahead of the rename or the
 * post-chain records it afterwards (commands, agents' native tools). Undefined for calls that change nothing.
 */
export async function mutationEventFor(facts: CallFacts, files: AppliedChange[], approval: ApprovalDecision | undefined, recordAs?: RecordAs): Promise<MutationEvent | undefined> {
  const { services, definition, call } = facts;
  const mutationClass = MUTATION_CLASS[definition.mutation];
  if (!mutationClass || files.length === 0) return undefined;
  // A reconciled change keeps the intent its PreToolUse was judged under; the session may be gone by now.
  const intentId = recordAs ? recordAs.intent_id : services.sessions.boundIntentId(call.session_id);
  const intent = recordAs || intentId === undefined ? undefined : await facts.boundIntent();
  const scope = recordAs ? recordAs.intent_scope : intent?.ok ? [...intent.value.owned_scope] : undefined;
  return {
    timestamp: services.clock().toISOString(),
    invocation_id: call.invocation_id,
    session_id: call.session_id,
    agent: call.agent,
    tool: call.tool,
    intent_id: intentId,
    intent_scope: scope,
    mutation_class: mutationClass,
    change_class: classifyChanges(files, (file) => facts.changeClass(file)),
    files,
    decision: approval?.approved ? 'approved' : 'allow',
    approver: approval?.approver,
    ...(approval ? traceApproval(approval) : {}),
    ...(recordAs ? { reconciled: recordAs.reconciled } : {}),
  };
}

function traceApproval(approval: ApprovalDecision): { approval?: TraceApproval } {
  const standing = approval.standing ?? approval.granted;
  if (!standing) return {};
  const named: TraceStanding = { session: standing.session, intent: standing.intent, granted_by: standing.granted_by, granted_at: standing.granted_at };
  return { approval: approval.standing ? { approver: approval.approver, standing: named } : { approver: approval.approver, granted_standing: named } };
}
