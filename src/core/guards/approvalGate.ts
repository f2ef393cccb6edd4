import { createTwoFilesPatch } from 'diff';
import type { PreHook, PreHookResult } from '../pipeline/hookTypes';
import { decodeText } from '../pipeline/callFacts';
import { matchScope } from '../policy/scope';
import { describeMode, modeInEffect, needsPerson } from '../approval/approvalPolicy';

const allow: PreHookResult = { decision: { kind: 'allow' } };

/**
 * Decides which calls a human must approve: deletes and scope expansions always; writes and edits when the
 * intent's approval mode (else the policy's default) is every-change or the workspace is untrusted. Destructive
 * commands ask from the command policy. A write or edit inside the bound intent's scope may be approved for the
 * rest of the session, and one a standing approval covers says so, so the governor need not ask again. It runs
 * after the scope guard, so a standing approval never reaches a change outside the intent's scope.
 */
export const approvalGate: PreHook = {
  name: 'approval-gate',
  guard: true,
  async run({ facts }) {
    const { definition, services, call } = facts;
    // Stryker disable next-line ConditionalExpression: a call that changes nothing never asks (needsPerson), whatever its intent's mode; this only spares loading it
    const intent = definition.mutation === 'none' ? undefined : await facts.boundIntent();
    const intentId = intent?.ok ? intent.value.id : undefined;
    if (definition.mutation === 'scope') {
      const globs = facts.input.globs as string[];
      return {
        decision: {
          kind: 'ask',
          ask: {
            kind: 'scope_expansion',
            title: `Expand the scope of intent '${intentId}'?`,
            reason: `${call.agent.name} asks to add ${globs.join(', ')} to the owned scope`,
            risk: 'medium',
            intent_id: intentId,
            globs,
            agent_reason: String(facts.input.reason),
          },
        },
      };
    }
    const isDelete = definition.mutation === 'delete';
    const isChange = definition.mutation === 'write' || definition.mutation === 'edit';
    const effect = modeInEffect(intent?.ok ? intent.value : undefined, services.policy);
    if (!needsPerson(isDelete ? 'delete' : isChange ? 'change' : 'none', effect.mode, services.policy.trusted)) return allow;
    const target = await facts.target();
    const proposed = await facts.proposed();
    if (!target.ok || !proposed.ok) return allow; // the stale guard has already refused these
    const before = decodeText(await facts.current(target.value.abs)) ?? '';
    const after = proposed.value ?? '';
    const rel = target.value.rel;
    const changeClass = await facts.proposedChangeClass();
    // An untrusted workspace asks for everything, every time.
    const sessionWide = isChange && services.policy.trusted && intent?.ok === true && matchScope(rel, intent.value.owned_scope, { caseInsensitive: services.caseInsensitive }) !== undefined;
    // Stryker disable next-line OptionalChaining: sessionWide is true only when intent?.ok is, so intent is defined here
    const standing = sessionWide && intent?.ok ? services.standingApprovals.findCurrent(call.session_id, intent.value) : undefined;
    return {
      decision: {
        kind: 'ask',
        ask: {
          reason: isDelete ? `Deletes ${rel}; deletes ask in every approval mode` : services.policy.trusted ? `${capitalised(describeMode(effect))} asks before every ${definition.mutation}` : 'The workspace is not trusted, so every change asks',
          risk: isDelete ? 'high' : 'low',
          intent_id: intentId,
          files: [rel],
          title: isDelete ? `Allow ${call.agent.name} to delete ${rel}?` : `Allow ${call.agent.name} to change ${rel}?`,
          diff: createTwoFilesPatch(`a/${rel}`, isDelete ? '/dev/null' : `b/${rel}`, before, after),
          change_class: changeClass,
          ...(sessionWide ? { session_approvable: true } : {}),
          ...(standing ? { standing } : {}),
        },
      },
    };
  },
};

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
