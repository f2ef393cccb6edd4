import { openCliGovernor } from './cliGovernor';
import { readdirSync } from 'node:fs';
import { MemoryBeforeStash } from '../core/bridge/beforeStash';
import { NativeToolBridge } from '../core/bridge/nativeToolBridge';
import { isNativePendingName } from '../core/bridge/pendingNativeChanges';
import { FileIntentSource } from '../core/intents/fileIntentSource';
import { denyingApprover } from '../core/nodeServices';
import { pendingDir, WriteAheadJournal } from '../core/trace/writeAheadJournal';
import { allSigned } from '../core/trace/signatureAudit';
import { formatProblem } from '../core/intents/intentsFile';
import { detectCaseInsensitive } from '../core/paths/canonicalPath';
import { auditScopes, auditTraceScopes } from '../core/policy/scopeAudit';
import { TRACE_FILE, traceFilePath } from '../core/trace/traceFiles';
import { describeVerification } from '../core/trace/workspaceVerify';
import { parseCliArgs, usageError } from './cliArgs';
import { governedWorkspaceFrom } from './governedWorkspace';
import type { CliCommand } from './cliCommand';
import { describeLogSignatures, describeSigners, verifyLogs } from './signedVerification';
import { addedTraceLines, describeAdded, verifyBranchAdded } from './branchVerification';
import { managedPolicy } from '../core/managed/managedPolicy';
import { orchestrationGitProblems } from '../core/trace/orchestrationGitFiles';
import { resolveCommit } from '../core/trace/baseRecords';
import { chooseBase, compareLogsWithBase, type ChosenBase } from '../core/trace/branchBase';
import { describeComparison, signedByAnyOf, signersAddedSince } from './baseCheck';
import { auditUngoverned, describeUngoverned } from '../core/watch/ungovernedAudit';

const USAGE = `governor check: one pass/fail gate for CI

Usage: governor check [--workspace DIR] [--require-signatures] [--base REF [--exact-base]] [--require-known-signers]

The workspace is the nearest folder at or above the current directory that holds .orchestration/ (as git
finds .git/), or --workspace DIR.

First, changes still pending in .orchestration/pending/ on this machine are settled, as any governor settles
them: a governed write whose writer died is reconciled with the disk, and an agent's native change whose post
event never came is recorded (metadata.reconciled) when its files changed, dropped when they did not.

Checks, and reports every failure:
  1. .orchestration/active_intents.yaml is valid (problems listed with line and column);
  2. the trace and the governance log verify (hash chains; anchors too when this machine has them);
  3. every path in every trace record lies inside its intent's owned_scope at the time of the change
     (recorded in the trace as metadata.intent_scope; records without it are checked against the current
     intents file). Records with neither are listed as warnings and do not fail the check;
  4. with --require-signatures (or requireSigning in the administrator's managed file), every record of both logs is signed by a key published in
     .orchestration/signers/ (not revoked): unsigned, legacy, unknown-key, revoked-key and bad signatures fail.
  5. with --base REF (in CI by default: the pull request's target, GITHUB_BASE_REF, else the default branch), every
     record the base's logs held is still in the working tree's logs, byte for byte and in order: a union merge may
     put the branch's records between them; a truncation, a dropped or changed record, a revert that took records
     fails, naming the record and the commit that dropped it. The base is the merge base of REF and HEAD, or REF
     itself with --exact-base (a push's previous tip, so a force-push that dropped records fails). Writers' notes the
     base already held are the base's, not the branch's. Signers the branch adds are listed as new;
     --require-known-signers fails when a record the branch added is signed by one of them. When the logs are the
     base's followed by the branch's records (git's blob id proves it), checks 2-4 judge only the records the branch
     added, from the base's last record on: the base passed its own gate (a base that is HEAD itself did not: CI on
     the default branch checks every record). Anything else (a merge that put the base's
     records after the branch's, a signer removed or revoked, records naming the base's middle) checks every record.
  6. no change on disk is left without a governed call: every ungoverned record (metadata.kind "ungoverned": a
     file changed while an agent's call was open that no governed call explains, or a window the governor could
     not watch) is accepted by a person (governor accept RECORD-ID) or reverted (the file back to its before hash).
Also says when git is not told to merge the logs as append-only (merge=union eol=lf) or a scratch file is committed.
Exit 0 when everything passes, 1 when anything fails, 2 on bad arguments.
`;

export const checkCommand: CliCommand = {
  name: 'check',
  summary: 'CI gate: intents file valid, trace verifies, every traced change inside its intent scope (--require-signatures: all signed)',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, {
      workspace: { type: 'string' },
      'require-signatures': { type: 'boolean' },
      base: { type: 'string' },
      'exact-base': { type: 'boolean' },
      'require-known-signers': { type: 'boolean' },
    });
    if (!parsed.ok) return usageError(io, 'check', parsed.message);
    if (parsed.values['exact-base'] && parsed.values.base === undefined) return usageError(io, 'check', '--exact-base needs --base REF');
    const root = await governedWorkspaceFrom(parsed.values.workspace, io, 'check');
    if (!root) return 2;
    const failures: string[] = [];
    const out = (text: string) => io.stdout(`${text}\n`);

    try {
      const settled = await settlePending(root, io.env);
      if (settled) out(`ok    pending: ${settled}`);
    } catch (error) {
      out(`FAIL  pending: changes waiting in .orchestration/pending/ could not be recorded (${error instanceof Error ? error.message : String(error)})`);
      failures.push('pending changes not recorded');
    }

    const snapshot = await new FileIntentSource(root).load();
    if (snapshot.valid) {
      const found = snapshot.exists ? `${snapshot.intents.length} intent(s) in ${snapshot.file}` : `no ${snapshot.file} (nothing planned)`;
      out(`ok    intents: ${found}`);
    } else {
      out(`FAIL  intents: ${snapshot.file} is invalid`);
      for (const problem of snapshot.problems) out(`        ${formatProblem(problem)}`);
      failures.push('intents file invalid');
    }

    // The administrator's requireSigning (managed file) makes the gate require signatures whatever the flags say.
    const managed = managedPolicy(io.env);
    const requireSignatures = parsed.values['require-signatures'] === true || managed.requireSigning || managed.state === 'broken';
    if (requireSignatures && parsed.values['require-signatures'] !== true) out(`info  signatures required by the administrator's managed file ${managed.file}${managed.problem ? ` (it cannot be used: ${managed.problem})` : ' (requireSigning)'}`);
    for (const finding of await orchestrationGitProblems(root)) out(`warn  git: ${finding.problem}; ${finding.fix}`);

    const base = await chooseBase(root, parsed.values.base as string | undefined, parsed.values['exact-base'] === true, io.env);
    const comparisons = typeof base === 'object' ? await compareLogsWithBase(root, base.commit) : [];
    if (typeof base === 'string') {
      out(`FAIL  base: ${base}`);
      failures.push('base not found');
    }
    for (const comparison of comparisons) {
      const { fail, lines } = describeComparison(comparison, base as ChosenBase);
      for (const line of lines) out(line);
      if (fail) failures.push(`${comparison.log} dropped records the base held`);
    }
    const baseNotes = new Map(comparisons.map((c) => [c.log, c.baseNotes]));
    const wantSignatures = requireSignatures || parsed.values['require-known-signers'] === true;
    // Git proved the base's records kept: only the branch's are verified. Anything less certain verifies every record,
    // and so does a base that is HEAD itself (CI on the default branch): no earlier gate vouches for its records.
    const judgedAlone = typeof base === 'object' && comparisons.every((c) => !c.dropped) && base.commit !== (await resolveCommit(root, 'HEAD'));
    const branch = judgedAlone ? await verifyBranchAdded(root, io.env, wantSignatures, comparisons, base.commit) : undefined;
    if (typeof branch === 'string') out(`info  every record verified: ${branch}`);
    const { logs, signers } = typeof branch === 'object' ? branch : await verifyLogs(root, io.env, wantSignatures, baseNotes);
    for (const { log, result, anchorMovedByGit } of logs) {
      const bad = result.status === 'tampered';
      const count = typeof branch === 'object' ? branch.counts.get(log) : undefined;
      out(`${bad ? 'FAIL ' : 'ok   '} ${log}: ${count ? describeAdded(result, count) : describeVerification(result, anchorMovedByGit)}`);
      if (bad) failures.push(`${log} tampered`);
    }
    for (const line of signers ? describeSigners(signers) : []) out(`info  ${line}`);
    for (const verification of logs) {
      if (!verification.signatures) continue;
      const signed = allSigned(verification.signatures);
      const [counts, ...runs] = describeLogSignatures({ ...verification, signatures: { ...verification.signatures, runs: verification.signatures.runs.filter((r) => r.verdict !== 'signed') } }, '');
      out(`${signed ? 'ok   ' : 'FAIL '} ${verification.log} ${counts}`);
      for (const run of runs) out(`      ${run}`);
      if (!signed) failures.push(`${verification.log} has records not signed by a known signer`);
    }

    if (typeof base === 'object') {
      const added = new Set(await signersAddedSince(root, base.commit));
      for (const name of added) out(`new   signer ${name}: .orchestration/signers/${name}.pub is added by this branch; a reviewer confirms it is that person's key`);
      for (const verification of logs) {
        const comparison = comparisons.find((c) => c.log === verification.log);
        if (!comparison || !verification.signatures || added.size === 0) continue;
        for (const run of signedByAnyOf(verification.signatures.runs, comparison.added, added)) {
          const line = `${verification.log} lines ${run.from}-${run.to} are signed by ${run.signer}, a signer this branch adds`;
          if (parsed.values['require-known-signers'] === true) {
            out(`FAIL  ${line} (--require-known-signers: publish the key in a pull request of its own, then the records)`);
            failures.push('records signed by a signer the branch adds');
          } else out(`info  ${line}`);
        }
      }
    }

    if (snapshot.valid) {
      const ci = await detectCaseInsensitive(root);
      const added = typeof branch === 'object' ? comparisons.find((c) => c.log === TRACE_FILE) : undefined;
      const audit = added ? await auditScopes(addedTraceLines(added), snapshot.intents, ci) : await auditTraceScopes(traceFilePath(root), snapshot.intents, ci);
      if (audit.violations.length === 0) out(`ok    scope: ${audit.checked} traced change(s)${added ? ' the branch added' : ''} checked, all inside their intent's owned_scope`);
      else {
        out(`FAIL  scope: ${audit.violations.length} traced change(s) outside their intent's owned_scope:`);
        for (const v of audit.violations) {
          out(`        trace line ${v.traceLine}: ${v.path} is outside ${v.intentId} (${v.ownedScope.join(', ') || 'no scope'})`);
        }
        failures.push('scope violations');
      }
      for (const u of audit.unknownIntents) {
        out(`warn  trace line ${u.traceLine}: intent ${u.intentId} is not in the intents file; its scope cannot be checked`);
      }
    } else {
      out('skip  scope: needs a valid intents file');
    }

    const ungoverned = await auditUngoverned(root);
    if (ungoverned.open.length) {
      out(`FAIL  ungoverned: ${ungoverned.open.length} change(s) on disk no governed call explains (accept each with governor accept RECORD-ID, or revert the file):`);
      for (const record of ungoverned.open) out(`        ${describeUngoverned(record)}`);
      failures.push('ungoverned changes');
    } else if (ungoverned.records.length) out(`ok    ungoverned: ${ungoverned.records.length} ungoverned change(s), each accepted or reverted`);

    out(failures.length ? `check failed: ${failures.join(', ')}` : 'check passed');
    return failures.length ? 1 : 0;
  },
};

/**
 * Settles what waits in `.orchestration/pending/` before the logs are verified, so the check sees every change on
 * disk: journal entries of dead writers (the trace writer reconciles them when it opens) and agents' native changes
 * whose post event never came. Nothing pending: nothing is opened, and undefined is returned.
 */
async function settlePending(root: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  let names: string[];
  try {
    names = readdirSync(pendingDir(root));
  } catch {
    return undefined;
  }
  const native = names.some(isNativePendingName);
  const orphans = new WriteAheadJournal(root).orphans().length;
  if (!native && orphans === 0) return undefined;
  const { governor, trace, close } = await openCliGovernor(root, env, { approver: denyingApprover });
  try {
    if (orphans) await trace.open(); // reconciles the journal's orphans (a native record would too, before it is written)
    const summary = await new NativeToolBridge(governor, new MemoryBeforeStash(), { askHuman: false }).reconcilePending({ dropUnchanged: true });
    await governor.userHooks.drain();
    const parts = [
      ...(orphans ? [`${orphans} interrupted governed write(s) reconciled`] : []),
      `${summary.recorded} native change(s) recorded whose post event never came`,
      `${summary.dropped} dropped (files unchanged)`,
      ...(summary.waiting ? [`${summary.waiting} still in flight (left for their post event)`] : []),
    ];
    return parts.join(', ');
  } finally {
    await close();
  }
}
