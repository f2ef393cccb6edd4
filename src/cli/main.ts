import type { CliCommand, CliIO } from './cliCommand';
import { exitAfterOutput, processIO } from './processIO';
import { blameCommand } from './blameCommand';
import { checkCommand } from './checkCommand';
import { acceptCommand } from './acceptCommand';
import { decideCommand } from './decideCommand';
import { doctorCommand } from './doctorCommand';
import { hookCommand } from './hookCommand';
import { hooksCommand } from './hooksCommand';
import { intentMapCommand } from './intentMapCommand';
import { keysCommand } from './keysCommand';
import { mcpCommand } from './mcpCommand';
import { reportCommand } from './reportCommand';
import { residentCommand } from './residentCommand';
import { traceCommand } from './traceCommand';
import { governorHome } from '../core/paths/governorHome';
import { takeDeferredNotice } from '../core/signing/firstUseKey';

/** Commands an agent runs (their stderr goes to the agent): they never print a deferred notice. */
const QUIET_COMMANDS = new Set(['hook', 'resident', 'mcp']);

/** Every subcommand, in the order `governor --help` lists them. */
const COMMANDS: CliCommand[] = [traceCommand, blameCommand, intentMapCommand, checkCommand, reportCommand, decideCommand, mcpCommand, hookCommand, residentCommand, hooksCommand, doctorCommand, keysCommand, acceptCommand];

function overview(): string {
  const width = Math.max(0, ...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'governor: Intent Governor command line',
    '',
    'Usage: governor <command> [options]   (governor <command> --help for details)',
    '',
    'Commands:',
    ...lines,
    '',
  ].join('\n');
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(overview());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  // What a hook or the resident governor could not say (a first-use signing key): told at the next command a person runs.
  if (command && !QUIET_COMMANDS.has(command.name)) {
    const notice = takeDeferredNotice(governorHome(io.env));
    if (notice) io.stderr(notice);
  }
  if (!command) {
    io.stderr(`governor: unknown command '${name}'. Run 'governor --help' to see the commands.\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.usage.endsWith('\n') ? command.usage : `${command.usage}\n`);
    return 0;
  }
  return command.run(rest, io);
}

if (require.main === module) {
  runCli(process.argv.slice(2), processIO()).then(exitAfterOutput, (error: unknown) => {
    process.stderr.write(`governor: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    exitAfterOutput(70);
  });
}
