import { decodeText } from '../pipeline/callFacts';
import { cancelledCallError } from '../approval/cancellation';
import type { AppliedChange } from '../pipeline/hookTypes';
import { canonicalizeCommandTarget } from '../commands/commandTargets';
import { runShellCommand, type RunOptions } from '../process/processRunner';
import { scrubEnv } from '../process/scrubbedEnv';
import { isAvailable } from '../sandbox/sandboxAvailability';
import { sandboxOf } from '../sandbox/sandboxOf';
import { fail } from '../toolError';
import { commandOutput } from './commandOutput';
import type { ToolDefinition, ToolExecution } from './toolDefinition';
import { PATH_PROPERTY, pathFields } from './toolInput';
import { runConfinedCommand } from './confinedCommand';

/** Literal files the command says it writes, canonicalised, so their before/after can be traced. */
async function knownTargets({ facts, services }: ToolExecution, cwdRel: string): Promise<Array<{ abs: string; rel: string }>> {
  const targets: Array<{ abs: string; rel: string }> = [];
  for (const target of facts.command().writeTargets) {
    // The command-policy guard has already refused every target that does not canonicalise.
    const canonical = await canonicalizeCommandTarget(services.workspace.root, cwdRel, target, services.caseInsensitive);
    if (canonical.ok && !canonical.value.directory) targets.push(canonical.value);
  }
  return targets;
}

export const runCommand: ToolDefinition = {
  name: 'run_command',
  title: 'Run command',
  description:
    'Runs a shell command in the workspace (default cwd: the root) with a timeout and capped output. Read-only commands run at once; destructive ones ask a human; some are refused.',
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, maxLength: 16_384, description: 'The shell command line (POSIX sh).' },
      cwd: { ...PATH_PROPERTY, description: 'Workspace-relative directory to run in.' },
      timeout_ms: { type: 'integer', minimum: 100, description: 'Kill the command (and its children) after this many milliseconds.' },
    },
    required: ['command'],
    additionalProperties: false,
  },
  mutation: 'command',
  paths: (input) => pathFields(input, [['cwd', 'read']]),
  async execute(execution) {
    const { facts, services, call } = execution;
    const paths = await facts.paths();
    if (!paths.ok) return fail(paths.error);
    const cwd = paths.value.find((p) => p.field === 'cwd') ?? { abs: services.workspace.root, rel: '' };
    const targets = await knownTargets(execution, cwd.rel);
    const before = await Promise.all(targets.map((t) => services.workspace.readFile(t.abs)));
    if (execution.signal.aborted) return fail(cancelledCallError(call.tool));
    const requested = typeof call.input.timeout_ms === 'number' ? call.input.timeout_ms : services.policy.commandTimeoutMs;
    const timeoutMs = Math.min(requested, services.policy.maxCommandTimeoutMs);
    const options: RunOptions = {
      cwd: cwd.abs,
      timeoutMs,
      maxOutputBytes: services.policy.maxCommandOutputBytes,
      env: withoutCdpath(scrubEnv(process.env)),
      signal: execution.signal,
    };
    // Where a sandbox starts, every command runs in it: the kernel, not the text, keeps writes in the scope.
    const sandbox = await sandboxOf(services);
    if (isAvailable(sandbox)) return runConfinedCommand(execution, sandbox, options, targets, before);
    const result = await runShellCommand(String(call.input.command), options);
    const changes: AppliedChange[] = [];
    for (const [index, target] of targets.entries()) {
      const after = decodeText(await services.workspace.readFile(target.abs));
      const previous = decodeText(before[index]);
      if (after !== previous) changes.push({ path: target.rel, before: previous, after });
    }
    return commandOutput(String(call.input.command), result, timeoutMs, changes);
  },
};

/** cd consults CDPATH before the working directory; without it a `cd dir` lands where the command policy placed it. */
function withoutCdpath(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { CDPATH: _cdpath, ...rest } = env;
  return rest;
}
