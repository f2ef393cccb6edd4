import { checkCommitted } from '../commands/committedFiles';
import { checkCommandTarget } from '../commands/commandTargets';
import { foreignRepositories } from '../commands/nestedRepositories';
import { toolError } from '../toolError';
import type { PreHook, PreHookResult } from '../pipeline/hookTypes';
import { commandWrites, findingsBeyondConfinement } from '../sandbox/confinedFindings';
import { describeSandbox, isAvailable } from '../sandbox/sandboxAvailability';
import { sandboxOf } from '../sandbox/sandboxOf';
import { describeScopeFolders } from '../sandbox/writableRoots';

const allow: PreHookResult = { decision: { kind: 'allow' } };

/**
 * Classifies run_command: denied commands are refused, destructive or unknowable ones ask a human, and every
 * file the command would write goes through the same path, protected-path and scope checks as write_file.
 * A command that runs project files (package.json scripts, a Makefile, conftest.py, a script) is safe only
 * while git says they are as last committed, and git must find the workspace's own repository; anything
 * git cannot vouch for asks.
 * Where a sandbox starts, the kernel keeps the command's writes in the scope, so findings that only say where it
 * writes need no human (unless every-change asks for every write); the rest ask, and the dialog says it runs confined.
 */
export const commandPolicyHook: PreHook = {
  name: 'command-policy',
  guard: true,
  async run(context) {
    const { facts } = context;
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
      const committed = await checkCommitted(root, cwdRel, analysis.executes, { caseInsensitive: services.caseInsensitive, signal: context.signal });
      unvouched.push(...committed.unverifiable);
      if (committed.changed.length > 0) unvouched.push(`runs ${committed.changed.join(', ')}, changed since the last git commit, so it may run code nobody reviewed`);
    }
    const sandbox = await sandboxOf(services);
    let reasons = [...analysis.reasons, ...unvouched];
    let confinement = '';
    // run_command runs confined; an agent's native shell only when the bridge rewrites it to (else it runs as it is).
    if (isAvailable(sandbox) && (facts.call.native === undefined || facts.call.native.confined === true)) {
      const beyond = findingsBeyondConfinement(analysis);
      const mode = intent.value.approval ?? services.policy.approval;
      const everyChange = mode === 'every-change' && commandWrites(analysis);
      if (beyond.length === 0 && unvouched.length === 0 && !everyChange) return allow;
      reasons = beyond.length > 0 || unvouched.length > 0 ? [...beyond, ...unvouched] : [`approval mode every-change asks before every change (${analysis.reasons.join('; ')})`];
      confinement = ` Runs confined by ${sandbox.kind}: it can write only in ${describeScopeFolders(intent.value.owned_scope)}, its own temp folder and package caches; .git, .orchestration and everything else stay read-only${intent.value.network === 'deny' ? ', and it has no network' : ''}.`;
    } else {
      if (analysis.verdict === 'safe' && !analysis.dynamicWriteTargets && unvouched.length === 0) return allow;
      confinement = isAvailable(sandbox) ? ` The agent's own shell runs it unconfined: only its text was checked.` : ` ${describeSandbox(sandbox)}`;
    }
    const shown = reasons.length ? reasons.join('; ') : 'the command changes the workspace';
    const destructiveOnly = analysis.verdict === 'destructive' && unvouched.length === 0;
    return {
      decision: {
        kind: 'ask',
        ask: {
          reason: `${destructiveOnly ? `Destructive command: ${shown}` : `Cannot be checked automatically: ${shown}`}.${confinement}`,
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
