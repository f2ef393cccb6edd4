import { AGENTS } from '../core/agents/registry';
import type { CliCommand } from './cliCommand';
import { decideHeadless } from './headlessDecider';
import { HOOK_USAGE, runHookFlow } from './hookFlow';
import { armHookWatchdog } from './hookWatchdog';

export const hookCommand: CliCommand = {
  name: 'hook',
  summary: `Govern an agent's native tools: the hook command for ${AGENTS.map((agent) => agent.label).join(', ')} (JSON on stdin)`,
  usage: HOOK_USAGE,
  run: (args, io) => runHookFlow(args, io, decideHeadless, armHookWatchdog),
};
