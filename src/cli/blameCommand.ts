import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { describeProblem, readRegularFile } from '../core/io/regularFile';
import { MAX_WORKSPACE_READ_BYTES } from '../core/nodeWorkspace';
import { blameFile, type BlameLine } from '../core/trace/traceBlame';
import { traceFilePath } from '../core/trace/traceFiles';
import { ECHO_LIMIT, echoArg, parseCliArgs, usageError } from './cliArgs';
import { governedWorkspaceFrom } from './governedWorkspace';
import type { CliCommand } from './cliCommand';

const USAGE = `governor blame: which agent, intent and model produced each line of a file

Usage: governor blame FILE [--json] [--workspace DIR]

Maps every line of FILE's current content to the newest Agent Trace record whose recorded range is still
in the file (found by content hash, so it survives lines moving). Lines no record explains are shown as
unattributed. The workspace is the nearest folder above the current directory holding .orchestration/ (or
--workspace DIR). A relative FILE is taken from the current directory, or else from the workspace's root (the first
of the two that is a file inside the workspace).
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
    const root = await governedWorkspaceFrom(parsed.values.workspace, io, 'blame');
    if (!root) return 2;
    const file = parsed.positionals[0];
    const candidates = isAbsolute(file) ? [file] : [resolve(io.cwd, file), resolve(root, file)];
    const inside = candidates.filter((candidate) => insideWorkspace(root, candidate));
    const absolute = (await firstExisting(inside)) ?? inside[0];
    if (!absolute) {
      const lookedAt = file.length > ECHO_LIMIT ? '' : ` (looked at ${[...new Set(candidates)].join(' and ')})`;
      io.stderr(`governor blame: ${echoArg(file)} is not a file of the workspace ${root}${lookedAt}. Give a path inside it, or pass --workspace DIR.\n`);
      return 2;
    }
    const rel = relative(root, absolute);
    // A regular file only, opened without blocking: a FIFO or a device at FILE would hold the command forever.
    const read = await readRegularFile(absolute, { maxBytes: MAX_WORKSPACE_READ_BYTES });
    if (!read.ok) {
      io.stderr(`governor blame: cannot read ${echoArg(absolute)} (${describeProblem('it', read.problem)}; ${read.problem.errno}).\n`);
      return 2;
    }
    const content = read.bytes.toString('utf8');
    let lines: BlameLine[];
    try {
      lines = await blameFile(traceFilePath(root), rel.split(sep).join('/'), content);
    } catch (error) {
      io.stderr(`governor blame: cannot read the trace ${echoArg(traceFilePath(root))} (${error instanceof Error ? error.message : String(error)}).\n`);
      return 2;
    }
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

function insideWorkspace(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

async function firstExisting(paths: string[]): Promise<string | undefined> {
  for (const path of paths) if ((await stat(path).catch(() => undefined))?.isFile()) return path;
  return undefined;
}
