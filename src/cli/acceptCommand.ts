import { gitText } from '../core/git/gitRun';
import { UNGOVERNED_ACCEPTED } from '../core/watch/ungovernedChanges';
import { auditUngoverned, describeUngoverned } from '../core/watch/ungovernedAudit';
import { parseCliArgs, usageError } from './cliArgs';
import { cliTraceStack } from './cliGovernor';
import type { CliCommand } from './cliCommand';
import { governedWorkspaceFrom } from './governedWorkspace';

const USAGE = `governor accept: a person accepts ungoverned changes

Usage: governor accept [--workspace DIR] RECORD-ID... | --all

An ungoverned change is a file that changed while a governed agent's tool call was open (a subagent, a background
task) and that no governed call explains: the resident governor records it in the trace (metadata.kind
"ungoverned"), and governor check fails on it until a person accepts it here or reverts the file to its before
hash. Accepting appends a governance record (code ${UNGOVERNED_ACCEPTED}, record_id the accepted record), signed like
every record, naming the person from git's user.name and user.email. --all accepts every open one.
`;

export const acceptCommand: CliCommand = {
  name: 'accept',
  summary: 'Accept ungoverned changes (by trace record id) so governor check passes again',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { workspace: { type: 'string' }, all: { type: 'boolean' } }, true);
    if (!parsed.ok) return usageError(io, 'accept', parsed.message);
    const ids = parsed.positionals ?? [];
    if (!parsed.values.all && ids.length === 0) return usageError(io, 'accept', 'name the record ids to accept, or --all');
    const root = await governedWorkspaceFrom(parsed.values.workspace as string | undefined, io, 'accept');
    if (!root) return 2;
    const audit = await auditUngoverned(root);
    const wanted = parsed.values.all ? audit.open : audit.records.filter((r) => ids.includes(r.id));
    const unknown = ids.filter((id) => !audit.records.some((r) => r.id === id));
    for (const id of unknown) io.stderr(`governor accept: ${id} is not an ungoverned record of this workspace's trace\n`);
    const name = await gitText(root, ['config', 'user.name']);
    const email = await gitText(root, ['config', 'user.email']);
    const person = name ? `${name}${email ? ` <${email}>` : ''}` : 'a person at the command line';
    const { sink } = cliTraceStack(root, io.env);
    try {
      for (const record of wanted) {
        if (audit.accepted.has(record.id)) {
          io.stdout(`already accepted: ${describeUngoverned(record)}\n`);
          continue;
        }
        await sink.recordGovernance({
          timestamp: new Date().toISOString(),
          invocation_id: `${record.call_id ?? record.id}#accepted`,
          session_id: record.session_id ?? 'unknown',
          agent: { name: 'human' },
          tool: record.tool ?? 'unknown',
          decision: 'allow',
          code: UNGOVERNED_ACCEPTED,
          message: `${person} accepted the ungoverned change of trace record ${record.id}`,
          paths: record.files.map((f) => f.path),
          approver: person,
          record_id: record.id,
        });
        io.stdout(`accepted: ${describeUngoverned(record)}\n`);
      }
    } finally {
      await sink.close();
    }
    if (wanted.length === 0 && unknown.length === 0) io.stdout('nothing to accept: no open ungoverned change\n');
    return unknown.length ? 1 : 0;
  },
};
