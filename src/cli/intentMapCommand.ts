import { readRegularFile } from '../core/io/regularFile';
import { IntentMapKeeper } from '../core/intentMap/intentMapKeeper';
import { INTENT_MAP_FILE } from '../core/intentMap/intentMapMarkdown';
import { parseCliArgs, usageError } from './cliArgs';
import { governedWorkspaceFrom } from './governedWorkspace';
import type { CliCommand } from './cliCommand';

const USAGE = `governor intent-map: rebuild .orchestration/intent_map.md

Usage: governor intent-map [--check] [--workspace DIR]

The workspace is the nearest folder at or above the current directory that holds .orchestration/ (as git
finds .git/), or --workspace DIR.

The intent map lists every intent (name, status, owned scope), the files its changes touched with the lines
those changes still hold (found again by content hash, as governor blame does), the record ids and last change
per file, and the calls refused under it. Every governor keeps it up to date after each recorded change; run
this after editing files by hand, after a git merge or checkout, or to create it. The output depends only on
the logs, the intents file and the files, so the same workspace always gives the same map.
--check writes nothing and fails when the map on disk is not what a rebuild would write (a CI gate for a
committed map).
Exit 0 rebuilt (or up to date); 1 the map could not be rebuilt, or --check found it out of date; 2 bad arguments.
`;

export const intentMapCommand: CliCommand = {
  name: 'intent-map',
  summary: 'Rebuild .orchestration/intent_map.md: intents, the lines their changes hold now, refusals',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { check: { type: 'boolean' }, workspace: { type: 'string' } });
    if (!parsed.ok) return usageError(io, 'intent-map', parsed.message);
    const root = await governedWorkspaceFrom(parsed.values.workspace, io, 'intent-map');
    if (root === undefined) return 2;
    const keeper = new IntentMapKeeper({ workspaceRoot: root });
    if (parsed.values.check) {
      const preview = await keeper.preview();
      if (!preview.ok) return failed(io, preview.error.message);
      const current = await readRegularFile(keeper.path, { maxBytes: Buffer.byteLength(preview.value.text) + 1 });
      if (current.ok && current.bytes.equals(Buffer.from(preview.value.text, 'utf8'))) {
        io.stdout(`${INTENT_MAP_FILE} is up to date (${describe(preview.value)}).\n`);
        return 0;
      }
      io.stderr(`governor intent-map: ${INTENT_MAP_FILE} is ${current.ok ? 'out of date' : 'missing'}. Run 'governor intent-map' and commit the result.\n`);
      return 1;
    }
    const outcome = await keeper.refresh();
    if (!outcome.ok) return failed(io, outcome.error.message);
    io.stdout(`${outcome.value.written ? 'wrote' : 'unchanged:'} ${INTENT_MAP_FILE} (${describe(outcome.value)}).\n`);
    return 0;
  },
};

function describe(map: { intents: number; files: number }): string {
  return `${map.intents} intent${map.intents === 1 ? '' : 's'}, ${map.files} file${map.files === 1 ? '' : 's'}`;
}

function failed(io: { stderr: (text: string) => void }, message: string): number {
  io.stderr(`governor intent-map: ${message}\n`);
  return 1;
}
