import { createTwoFilesPatch } from 'diff';
import type { PreHook, PreHookResult } from '../hookTypes';
import { decodeText } from '../callFacts';

const allow: PreHookResult = { decision: { kind: 'allow' } };

/**
 * Decides which calls a human must approve: deletes and scope expansions always; writes and edits when the
 * policy says so or the workspace is untrusted. Destructive commands ask from the command policy.
 */
export const approvalGate: PreHook = {
  name: 'approval-gate',
  guard: true,
  async run({ facts }) {
    const { definition, services, call } = facts;
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
    const asksForWrites = (definition.mutation === 'write' || definition.mutation === 'edit') && (services.policy.approveWrites || !services.policy.trusted);
    if (!isDelete && !asksForWrites) return allow;
    const target = await facts.target();
    const proposed = await facts.proposed();
    if (!target.ok || !proposed.ok) return allow; // the stale guard has already refused these
    const before = decodeText(await facts.current(target.value.abs)) ?? '';
    const after = proposed.value ?? '';
    const rel = target.value.rel;
    const changeClass = await facts.proposedChangeClass();
    return {
      decision: {
        kind: 'ask',
        ask: {
          reason: isDelete ? `Deletes ${rel}` : services.policy.trusted ? `Policy asks before every ${definition.mutation}` : 'The workspace is not trusted',
          risk: isDelete ? 'high' : 'low',
          intent_id: intentId,
          files: [rel],
          title: isDelete ? `Allow ${call.agent.name} to delete ${rel}?` : `Allow ${call.agent.name} to change ${rel}?`,
          diff: createTwoFilesPatch(`a/${rel}`, isDelete ? '/dev/null' : `b/${rel}`, before, after),
          change_class: changeClass,
        },
      },
    };
  },
};
