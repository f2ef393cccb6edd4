import { checkCommitted } from '../commands/committedFiles';
import { checkCommandTarget } from '../commands/commandTargets';
import { foreignRepositories } from '../commands/nestedRepositories';
import { toolError } from '../toolError';
import type { PreHook, PreHookResult } from '../pipeline/hookTypes';

const allow: PreHookResult = { decision: { kind: 'allow' } };

/**
 * Classifies run_command: denied commands are refused, destructive or unknowable ones ask a human, and every
 * file the command would write goes through the same path, protected-path and scope checks as write_file.
 * A command that runs project files (package.json scripts, a Makefile, conftest.py, a script) is safe only
 * while git says they are as last committed, and git must find the workspace's own repository; anything
 * git cannot vouch for asks.
 */
export const commandPolicyHook: PreHook = {
  name: 'command-policy',
  guard: true,
  async run({ facts, signal }) {
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
    const root = services.workspace.root;
    const cwdRel = paths.value.find((p) => p.field === 'cwd')?.rel ?? '';
    const files: string[] = [];
    for (const target of analysis.writeTargets) {
      const checked = await checkCommandTarget(root, cwdRel, target, intent.value, services.caseInsensitive);
      if (!checked.ok) return { decision: { kind: 'deny', error: checked.error } };
      files.push(checked.value.rel);
    }
    const unvouched = await foreignRepositories(root, cwdRel, analysis.gitDirectories, services.caseInsensitive);
    if (analysis.executes.length > 0) {
      const committed = await checkCommitted(root, cwdRel, analysis.executes, { caseInsensitive: services.caseInsensitive, signal });
      unvouched.push(...committed.unverifiable);
      if (committed.changed.length > 0) unvouched.push(`runs ${committed.changed.join(', ')}, changed since the last git commit, so it may run code nobody reviewed`);
    }
    if (analysis.verdict === 'safe' && !analysis.dynamicWriteTargets && unvouched.length === 0) return allow;
    const reasons = [...analysis.reasons, ...unvouched];
    const shown = reasons.length ? reasons.join('; ') : 'the command changes the workspace';
    const destructiveOnly = analysis.verdict === 'destructive' && unvouched.length === 0;
    return {
      decision: {
        kind: 'ask',
        ask: {
          reason: destructiveOnly ? `Destructive command: ${shown}` : `Cannot be checked automatically: ${shown}`,
          risk: destructiveOnly ? 'medium' : 'high',
          command,
          intent_id: intent.value.id,
          mutation_class: 'command',
          files,
          title: `Allow ${facts.call.agent.name} to run a command?`,
        },
      },
    };
  },
};
