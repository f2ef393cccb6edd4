import { join } from 'node:path';
import { CHANGE_CLASSES } from '../core/changeClass/changeClass';
import { defaultAnchorDir } from '../core/trace/anchorStore';
import { reanchorWorkspaceLogs } from '../core/trace/reanchor';
import { MIN_KEEP, sealWorkspaceLogs } from '../core/trace/sealLog';
import { GOVERNANCE_LOG_FILE, TRACE_FILE } from '../core/trace/traceFiles';
import { formatRefusalRow, queryRefusals, REFUSAL_TABLE_HEADER, refusalRowCells, type RefusalFilter } from '../core/trace/refusalReader';
import { queryTrace, type TraceFilter } from '../core/trace/traceReader';
import { createAnchorStore } from '../core/trace/traceStack';
import { formatTraceRow, TRACE_TABLE_HEADER, traceRowCells } from '../core/trace/traceTable';
import { describeVerification } from '../core/trace/workspaceVerify';
import { TRACE_DECISIONS } from '../core/trace/traceRecord';
import { echoArg, oneOf, parseCliArgs, usageError, workspacePattern } from './cliArgs';
import { governedWorkspaceFrom } from './governedWorkspace';
import { cliTraceStack } from './cliGovernor';
import { gitText } from '../core/git/gitRun';
import type { CliCommand, CliIO } from './cliCommand';
import { describeLogSignatures, describeSigners, verifyLogs } from './signedVerification';

/** Records younger than this stay in the working file: a branch opened since still merges cleanly. */
const SEAL_DAYS = 30;
const SEAL_KEEP = 100;

const USAGE = `governor trace: show or verify the Agent Trace (.orchestration/agent_trace.jsonl)

Usage:
  governor trace [--intent ID] [--file PATH|GLOB] [--agent NAME] [--model ID] [--decision allow|approved]
                 [--class AST_REFACTOR|INTENT_EVOLUTION] [--since ISO] [--until ISO] [--json] [--workspace DIR]
  governor trace refusals [--intent ID] [--agent NAME] [--since ISO] [--until ISO] [--json] [--workspace DIR]
  governor trace verify [--json] [--workspace DIR]
  governor trace reanchor [--workspace DIR]
  governor trace seal [--older-than DAYS] [--keep N] [--workspace DIR]

The workspace is the nearest folder at or above the current directory that holds .orchestration/ (as git
finds .git/), or --workspace DIR.

governor trace          lists matching records as a table (one JSON record per line with --json).
                        --decision and --class take only the values shown; --file is relative to the
                        workspace (an absolute path must lie inside it).
                        --class keeps the changes of that class (metadata.mutation_class): AST_REFACTOR
                        when the syntax trees say behaviour stays, INTENT_EVOLUTION otherwise.
governor trace refusals lists what the governor refused, a person rejected or failed (the governance log,
                        .orchestration/governance_log.jsonl): when, the code, the agent, the intent, the tool
                        and what was asked (a command's text, else the paths), as a table or JSON lines.
governor trace verify   checks the hash chains of the trace and of .orchestration/governance_log.jsonl and
                        the anchors kept outside the workspace ($INTENT_GOVERNOR_ANCHOR_DIR, else
                        <config dir>/intent-governor/anchors), and says of every record whether it is
                        signed by a signer in .orchestration/signers/, unsigned, unsigned (legacy: from
                        before records were signed), signed by an unknown or a revoked key, or carries a
                        bad signature (see governor keys --help). Exit 0 when verified, merged or empty;
                        1 when tampered, naming the first bad line and why (signatures do not change the
                        exit code: governor check --require-signatures is the gate).
governor trace reanchor for a human who checked what verify reported: a rebase that put another branch's
                        records before this machine's, a reset that removed records, and the writers'
                        discontinuity notes about them cannot be told apart from tampering. If the chains
                        are otherwise intact, it accepts them on this machine (prints what it accepted)
                        and moves the anchors to the current heads. A writer's discontinuity note is in
                        the shared log, so it also appends a signed acceptance record naming the notes:
                        once committed and pushed, every clone and CI accept them. Exit 1, changing
                        nothing for that log, when a chain itself is broken (edited, deleted or
                        reordered records), or when the acceptance record could not be written.
governor trace seal     moves each log's records older than --older-than days (default ${SEAL_DAYS}) from the
                        start of the working file, byte for byte, into a new file under
                        .orchestration/sealed/, keeping at least --keep lines (default ${SEAL_KEEP}) in the
                        working file. Nothing about the records changes (chains, anchors and line numbers
                        see one log), but a git merge then touches only the working file, and check --base
                        proves the sealed files unchanged without reading them. Run it on the default
                        branch and commit the result; a branch that forked before the sealed records ends
                        must merge the default branch in first. Exit 1, sealing nothing of that log, when
                        it does not verify.
Exit 2 on bad arguments or a workspace that is not a directory.
`;

const QUERY_OPTIONS = {
  intent: { type: 'string' },
  file: { type: 'string' },
  agent: { type: 'string' },
  model: { type: 'string' },
  decision: { type: 'string' },
  class: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  json: { type: 'boolean' },
  workspace: { type: 'string' },
} as const;

export const traceCommand: CliCommand = {
  name: 'trace',
  summary: 'List Agent Trace records (filters), `trace refusals` what was refused, `trace verify` the hash chains and anchors, `trace reanchor` after a checked rebase, `trace seal` old records',
  usage: USAGE,
  async run(args, io) {
    if (args[0] === 'verify') return runVerify(args.slice(1), io);
    if (args[0] === 'refusals') return runRefusals(args.slice(1), io);
    if (args[0] === 'reanchor') return runReanchor(args.slice(1), io);
    if (args[0] === 'seal') return runSeal(args.slice(1), io);
    const parsed = parseCliArgs(args, QUERY_OPTIONS);
    if (!parsed.ok) return usageError(io, 'trace', parsed.message);
    const { values } = parsed;
    const filter: TraceFilter = {};
    for (const key of ['intent', 'agent', 'model'] as const) {
      if (typeof values[key] === 'string') filter[key] = values[key] as string;
    }
    if (typeof values.decision === 'string') {
      const decision = oneOf('decision', values.decision, TRACE_DECISIONS);
      if (!decision.ok) return usageError(io, 'trace', decision.message);
      filter.decision = decision.value;
    }
    if (typeof values.class === 'string') {
      const changeClass = oneOf('class', values.class, CHANGE_CLASSES);
      if (!changeClass.ok) return usageError(io, 'trace', changeClass.message);
      filter.mutationClass = changeClass.value;
    }
    const dates = dateRange(values, 'trace', io);
    if (typeof dates === 'number') return dates;
    Object.assign(filter, dates);
    const root = await governedWorkspaceFrom(values.workspace, io, 'trace');
    if (!root) return 2;
    if (typeof values.file === 'string') {
      const file = workspacePattern('file', values.file, root);
      if (!file.ok) return usageError(io, 'trace', file.message);
      filter.file = file.value;
    }
    let count = 0;
    if (!values.json) io.stdout(`${formatTraceRow(TRACE_TABLE_HEADER)}\n`);
    for await (const { line, record } of queryTrace(join(root, TRACE_FILE), filter)) {
      count += 1;
      io.stdout(values.json ? `${JSON.stringify(record)}\n` : `${formatTraceRow(traceRowCells(line, record))}\n`);
    }
    if (!values.json) io.stdout(`${count} record${count === 1 ? '' : 's'}\n`);
    return 0;
  },
};

const REFUSAL_OPTIONS = { intent: { type: 'string' }, agent: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' }, json: { type: 'boolean' }, workspace: { type: 'string' } } as const;

async function runRefusals(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCliArgs(args, REFUSAL_OPTIONS);
  if (!parsed.ok) return usageError(io, 'trace refusals', parsed.message);
  const { values } = parsed;
  const filter: RefusalFilter = {};
  if (typeof values.intent === 'string') filter.intent = values.intent;
  if (typeof values.agent === 'string') filter.agent = values.agent;
  const dates = dateRange(values, 'trace refusals', io);
  if (typeof dates === 'number') return dates;
  Object.assign(filter, dates);
  const root = await governedWorkspaceFrom(values.workspace, io, 'trace refusals');
  if (!root) return 2;
  let count = 0;
  if (!values.json) io.stdout(`${formatRefusalRow(REFUSAL_TABLE_HEADER)}\n`);
  for await (const entry of queryRefusals(join(root, GOVERNANCE_LOG_FILE), filter)) {
    count += 1;
    io.stdout(values.json ? `${JSON.stringify(entry.record)}\n` : `${formatRefusalRow(refusalRowCells(entry))}\n`);
  }
  if (!values.json) io.stdout(`${count} refusal${count === 1 ? '' : 's'}\n`);
  return 0;
}

/** --since and --until as dates, or the usage error's exit code. */
function dateRange(values: { since?: unknown; until?: unknown }, command: string, io: CliIO): { since?: Date; until?: Date } | number {
  const range: { since?: Date; until?: Date } = {};
  for (const key of ['since', 'until'] as const) {
    const value = values[key];
    if (typeof value !== 'string') continue;
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) return usageError(io, command, `--${key} ${echoArg(value)} is not an ISO date or date-time`);
    range[key] = date;
  }
  return range;
}

async function runVerify(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCliArgs(args, { json: { type: 'boolean' }, workspace: { type: 'string' } });
  if (!parsed.ok) return usageError(io, 'trace verify', parsed.message);
  const root = await governedWorkspaceFrom(parsed.values.workspace, io, 'trace verify');
  if (!root) return 2;
  const { logs: results, signers } = await verifyLogs(root, io.env, true);
  if (parsed.values.json) {
    io.stdout(`${JSON.stringify(results.map(({ log, result, signatures }) => ({ log, ...result, signatures })), null, 2)}\n`);
  } else {
    for (const line of signers ? describeSigners(signers) : []) io.stdout(`${line}\n`);
    for (const verification of results) {
      io.stdout(`${verification.log}: ${describeVerification(verification.result, verification.anchorMovedByGit)}\n`);
      for (const line of describeLogSignatures(verification, '  ')) io.stdout(`${line}\n`);
    }
  }
  return results.some((r) => r.result.status === 'tampered') ? 1 : 0;
}

async function runSeal(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCliArgs(args, { 'older-than': { type: 'string' }, keep: { type: 'string' }, workspace: { type: 'string' } });
  if (!parsed.ok) return usageError(io, 'trace seal', parsed.message);
  const days = Number(parsed.values['older-than'] ?? SEAL_DAYS);
  const keep = Number(parsed.values.keep ?? SEAL_KEEP);
  if (!Number.isFinite(days) || days < 0) return usageError(io, 'trace seal', `--older-than takes a number of days, not ${echoArg(String(parsed.values['older-than']))}`);
  if (!Number.isSafeInteger(keep) || keep < MIN_KEEP) return usageError(io, 'trace seal', `--keep takes a whole number of at least ${MIN_KEEP}, not ${echoArg(String(parsed.values.keep))}`);
  const root = await governedWorkspaceFrom(parsed.values.workspace, io, 'trace seal');
  if (!root) return 2;
  const results = await sealWorkspaceLogs(root, { before: new Date(Date.now() - days * 86_400_000), keep });
  for (const { log, sealed, segment, kept, refused } of results) {
    if (refused) io.stdout(`${log}: NOT sealed, it does not verify: ${refused}\n`);
    else if (!sealed) io.stdout(`${log}: nothing to seal (no run of records older than ${days} days before the last ${keep})\n`);
    else io.stdout(`${log}: sealed ${sealed} record${sealed === 1 ? '' : 's'} into ${segment}; ${kept} stay in the working file\n`);
  }
  if (results.some((r) => r.sealed)) io.stdout('Commit .orchestration/ on the default branch: `git add .orchestration && git commit -m "Seal old Agent Trace records"`.\n');
  return results.some((r) => r.refused) ? 1 : 0;
}

async function runReanchor(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCliArgs(args, { workspace: { type: 'string' } });
  if (!parsed.ok) return usageError(io, 'trace reanchor', parsed.message);
  const root = await governedWorkspaceFrom(parsed.values.workspace, io, 'trace reanchor');
  if (!root) return 2;
  const results = await reanchorWorkspaceLogs(root, createAnchorStore({ workspaceRoot: root, anchorDir: defaultAnchorDir(io.env) }));
  for (const { log, accepted, head, refused } of results) {
    if (refused) {
      io.stdout(`${log}: NOT reanchored, the chain itself is broken: ${refused}\n`);
      continue;
    }
    if (!head) {
      io.stdout(`${log}: empty, nothing to anchor\n`);
      continue;
    }
    io.stdout(`${log}: ${accepted.length ? 'accepted on this machine:' : 'nothing to accept;'}\n`);
    for (const item of accepted) io.stdout(`  - ${item}\n`);
    io.stdout(`  anchor now at line ${head.line} (${head.hash.slice(0, 19)}…, ${head.size} bytes)\n`);
  }
  const notes = Object.fromEntries(results.filter((r) => r.acceptedNotes?.length).map((r) => [r.log, r.acceptedNotes as string[]]));
  const shared = Object.keys(notes).length ? await recordSharedAcceptance(root, notes, io) : true;
  return results.some((r) => r.refused) || !shared ? 1 : 0;
}

/**
 * The notes a writer left are in the shared log, so accepting them on one machine would leave every other clone
 * failing: an acceptance record in the log, signed with this person's key, accepts them wherever it is pulled.
 */
async function recordSharedAcceptance(root: string, notes: Record<string, string[]>, io: CliIO): Promise<boolean> {
  const { sink } = cliTraceStack(root, io.env);
  try {
    const name = await gitText(root, ['config', 'user.name']);
    const email = await gitText(root, ['config', 'user.email']);
    await sink.recordAcceptance(notes, name ? `${name}${email ? ` <${email}>` : ''}` : undefined);
    for (const [log, hashes] of Object.entries(notes)) {
      io.stdout(`${log}: appended an acceptance of ${hashes.length} discontinuity note${hashes.length === 1 ? '' : 's'}: commit and push it, and every clone accepts ${hashes.length === 1 ? 'it' : 'them'}\n`);
    }
    return true;
  } catch (error) {
    io.stderr(`governor trace reanchor: accepted on this machine only; the acceptance record for the other clones could not be written (${error instanceof Error ? error.message : String(error)}). Fix that and run \`governor trace reanchor\` again.\n`);
    return false;
  } finally {
    await sink.close();
  }
}
