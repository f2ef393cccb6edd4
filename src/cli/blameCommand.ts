import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { blameFile, type BlameLine } from '../core/trace/traceBlame';
import { traceFilePath } from '../core/trace/traceFiles';
import { parseCliArgs, usageError, workspaceFrom } from './cliArgs';
import type { CliCommand } from './cliCommand';

const USAGE = `governor blame: which agent, intent and model produced each line of a file

Usage: governor blame FILE [--json] [--workspace DIR]

Maps every line of FILE's current content to the newest Agent Trace record whose recorded range is still
in the file (found by content hash, so it survives lines moving). Lines no record explains are shown as
unattributed. FILE is relative to the current directory; the workspace defaults to the current directory.
--json prints [{line, text, recordId?, intentId?, agent?, model?, timestamp?, traceLine?}].
Exit 2 when FILE cannot be read or is outside the workspace.
`;

export const blameCommand: CliCommand = {
  name: 'blame',
  summary: 'Attribute each line of a file to the trace record (intent, agent, model) that wrote it',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { json: { type: 'boolean' }, workspace: { type: 'string' } }, true);
    if (!parsed.ok) return usageError(io, 'blame', parsed.message);
    if (parsed.positionals.length !== 1) return usageError(io, 'blame', 'expected exactly one FILE');
    const root = await workspaceFrom(parsed.values.workspace, io, 'blame');
    if (!root) return 2;
    const absolute = resolve(io.cwd, parsed.positionals[0]);
    const rel = relative(root, absolute);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
      io.stderr(`governor blame: '${absolute}' is not inside the workspace ${root}. Pass --workspace DIR.\n`);
      return 2;
    }
    let content: string;
    try {
      content = await readFile(absolute, 'utf8');
    } catch (error) {
      io.stderr(`governor blame: cannot read '${absolute}' (${(error as NodeJS.ErrnoException).code ?? String(error)}).\n`);
      return 2;
    }
    const lines = await blameFile(traceFilePath(root), rel.split(sep).join('/'), content);
    if (parsed.values.json) io.stdout(`${JSON.stringify(lines, null, 2)}\n`);
    else io.stdout(formatBlame(lines));
    return 0;
  },
};

function formatBlame(lines: BlameLine[]): string {
  const width = String(lines.length).length;
  const attributed = lines.filter((l) => l.recordId).length;
  const rows = lines.map((l) => {
    const who = l.recordId
      ? `${l.recordId.slice(0, 8)} ${pad(l.intentId ?? '', 14)} ${pad(l.agent ?? '', 14)} ${pad(l.model ?? '-', 18)} ${(l.timestamp ?? '').slice(0, 10)}`
      : pad('(unattributed)', 8 + 1 + 14 + 1 + 14 + 1 + 18 + 1 + 10);
    return `${String(l.line).padStart(width)} ${who} | ${l.text}`;
  });
  return `${rows.join('\n')}\n${attributed} of ${lines.length} lines attributed to trace records\n`;
}

function pad(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}
