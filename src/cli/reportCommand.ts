import { appendFile } from 'node:fs/promises';
import { FileIntentSource } from '../core/intents/fileIntentSource';
import { detectCaseInsensitive } from '../core/paths/canonicalPath';
import { auditScopes } from '../core/policy/scopeAudit';
import { branchRecords, readAddedLines } from '../core/trace/branchRecords';
import { buildBranchReport, type BranchReport, type OutOfScopeFinding } from '../core/trace/branchReport';
import { GOVERNANCE_LOG_FILE, TRACE_FILE } from '../core/trace/traceFiles';
import type { TraceLine } from '../core/trace/traceReader';
import { chooseBase, compareLogsWithBase } from '../core/trace/branchBase';
import { signersAddedSince } from './baseCheck';
import { parseCliArgs, usageError } from './cliArgs';
import type { CliCommand } from './cliCommand';
import { governedWorkspaceFrom } from './governedWorkspace';
import { reportMarkdown } from './reportMarkdown';

const USAGE = `governor report: what agents did on this branch, for a pull request

Usage: governor report [--base REF [--exact-base]] [--json] [--workspace DIR]

Lists only the records the branch added since the base (the base's records were reviewed with it), per intent:
the files and line ranges agents changed, the agents and their models, who approved what, refusals, commands run,
changes outside the intent's owned_scope, and signers the branch adds (.orchestration/signers/*.pub).
The base is chosen as for 'governor check --base': the merge base of REF and HEAD, or REF itself with
--exact-base; without --base, in CI (CI set): the pull request's target (GITHUB_BASE_REF), else origin/HEAD.
Prints markdown, or the same report as JSON with --json. When GITHUB_STEP_SUMMARY names a file, the markdown is
appended to it as well (GitHub shows it on the job's summary page).
The report does not verify the logs: run 'governor check --base' for the gate.
Exit 0 when it reported, 1 when the base cannot be found, 2 on bad arguments.
`;

export const reportCommand: CliCommand = {
  name: 'report',
  summary: 'Pull request report: per intent, what agents changed since a base, approvals, refusals, new signers (--json)',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { base: { type: 'string' }, 'exact-base': { type: 'boolean' }, json: { type: 'boolean' }, workspace: { type: 'string' } });
    if (!parsed.ok) return usageError(io, 'report', parsed.message);
    const ref = parsed.values.base as string | undefined;
    if (parsed.values['exact-base'] && ref === undefined) return usageError(io, 'report', '--exact-base needs --base REF');
    if (ref === '') return usageError(io, 'report', '--base needs a ref (a branch, tag or commit), e.g. --base main');
    if (ref === undefined && !io.env.CI) return usageError(io, 'report', 'say what the branch is compared with: --base REF (e.g. --base main; in CI the pull request\'s target is used)');
    const root = await governedWorkspaceFrom(parsed.values.workspace, io, 'report');
    if (!root) return 2;

    const base = await chooseBase(root, ref, parsed.values['exact-base'] === true, io.env);
    if (base === undefined) {
      io.stderr("governor report: no base to compare with: GITHUB_BASE_REF is not set and origin/HEAD is not known here. Pass --base REF, or in CI fetch the default branch (actions/checkout with fetch-depth: 0).\n");
      return 1;
    }
    if (typeof base === 'string') {
      io.stderr(`governor report: ${base}.\n`);
      return 1;
    }
    const report = await branchReport(root, base);
    const markdown = reportMarkdown(report);
    io.stdout(parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : markdown);
    const summaryFile = io.env.GITHUB_STEP_SUMMARY;
    if (summaryFile) {
      try {
        await appendFile(summaryFile, `${markdown}\n`);
      } catch (error) {
        // The report is printed; a job summary that cannot be written is said, not fatal.
        io.stderr(`governor report: could not append to GITHUB_STEP_SUMMARY ${summaryFile} (${error instanceof Error ? error.message : String(error)}).\n`);
      }
    }
    return 0;
  },
};

/** Reads what the branch added since the base and shapes it; the scope audit is check's, over the added records. */
async function branchReport(root: string, base: { commit: string; said: string }): Promise<BranchReport> {
  const comparisons = await compareLogsWithBase(root, base.commit);
  const added = new Map<string, TraceLine[]>();
  for (const c of comparisons) added.set(c.log, await readAddedLines(root, c));
  const trace = added.get(TRACE_FILE) ?? [];
  return buildBranchReport({
    base,
    records: branchRecords(trace, added.get(GOVERNANCE_LOG_FILE) ?? []),
    baseRecords: comparisons.map((c) => ({ log: c.log, records: c.baseRecords })),
    dropped: comparisons.filter((c) => c.dropped).map((c) => c.log),
    outOfScope: await outOfScope(root, trace),
    newSigners: await signersAddedSince(root, base.commit),
  });
}

async function outOfScope(root: string, trace: TraceLine[]): Promise<OutOfScopeFinding[] | { unchecked: string }> {
  const snapshot = await new FileIntentSource(root).load();
  if (!snapshot.valid) return { unchecked: `${snapshot.file} is invalid (governor check lists its problems)` };
  const audit = await auditScopes(trace, snapshot.intents, await detectCaseInsensitive(root));
  return audit.violations.map(({ traceLine, intentId, path, ownedScope }) => ({ traceLine, intentId, path, ownedScope }));
}
