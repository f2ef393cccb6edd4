import { checkCommandTarget } from '../../policy/commandTargets';
import { toolError } from '../../toolError';
import type { PreHook, PreHookResult } from '../hookTypes';

const allow: PreHookResult = { decision: { kind: 'allow' } };

/**
 * Classifies run_command: denied commands are refused, destructive or unknowable ones ask a human, and every
 * file the command would write goes through the same path, protected-path and scope checks as write_file.
 */
export const commandPolicyHook: PreHook = {
  name: 'command-policy',
  guard: true,
  async run({ facts }) {
    if (facts.definition.mutation !== 'command') return allow;
    const command = String(facts.input.command);
    const { services } = facts;
    if (!services.policy.trusted) {
      return { decision: { kind: 'deny', error: toolError('COMMAND_DENIED', 'This workspace is not trusted, so agents may not run commands. A human can trust the workspace to allow them.', { command }) } };
    }
    const analysis = facts.command();
    if (analysis.verdict === 'denied') {
      return { decision: { kind: 'deny', error: toolError('COMMAND_DENIED', `Refused: ${analysis.reasons.join('; ')}. Do not retry this command; find another way or ask the user.`, { command, reasons: analysis.reasons }) } };
    }
    const intent = await facts.boundIntent();
    if (!intent.ok) return { decision: { kind: 'deny', error: intent.error } };
    const paths = await facts.paths();
    if (!paths.ok) return { decision: { kind: 'deny', error: paths.error } };
    const cwdRel = paths.value.find((p) => p.field === 'cwd')?.rel ?? '';
    for (const target of analysis.writeTargets) {
      const checked = await checkCommandTarget(services.workspace.root, cwdRel, target, intent.value, services.caseInsensitive);
      if (!checked.ok) return { decision: { kind: 'deny', error: checked.error } };
    }
    if (analysis.verdict === 'safe' && !analysis.dynamicWriteTargets) return allow;
    const reasons = analysis.reasons.length ? analysis.reasons.join('; ') : 'the command changes the workspace';
    return {
      decision: {
        kind: 'ask',
        ask: {
          reason: analysis.verdict === 'destructive' ? `Destructive command: ${reasons}` : `Cannot be checked automatically: ${reasons}`,
          risk: analysis.verdict === 'destructive' ? 'medium' : 'high',
          command,
          intent_id: intent.value.id,
          mutation_class: 'command',
          files: analysis.writeTargets,
          title: `Allow ${facts.call.agent.name} to run a command?`,
        },
      },
    };
  },
};
