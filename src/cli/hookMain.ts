import { join } from 'node:path';
import type { HeadlessDecider } from './hookFlow';
import { runHookFlow } from './hookFlow';
import { processIO } from './processIO';

/**
 * dist/hook.js: `governor hook` in a small bundle, because agents start one process per tool call. It has
 * no governor of its own; when no extension runs, the headless governor is loaded from dist/cli.js beside it.
 * Usage as for the CLI: `node dist/hook.js hook <agent> [options]`.
 */
const loadHeadless: HeadlessDecider = (request, root, intent, io) => {
  // A computed path, so the bundler leaves the full CLI out of this bundle.
  const cli = require(join(__dirname, 'cli.js')) as { decideHeadless: HeadlessDecider };
  return cli.decideHeadless(request, root, intent, io);
};

if (require.main === module) {
  const io = processIO();
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'hook') {
    process.stderr.write("Intent Governor blocked this call: usage is 'node hook.js hook <vscode|claude|cursor> [options]'.\n");
    process.exitCode = 2;
  } else {
    runHookFlow(rest, io, loadHeadless).then(
      (code) => (process.exitCode = code),
      (error: unknown) => {
        // Exit 2 blocks the call in every agent we serve: a crash never lets a tool through.
        process.stderr.write(`Intent Governor blocked this call: internal error (${error instanceof Error ? error.message : String(error)}).\n`);
        process.exitCode = 2;
      },
    );
  }
}
