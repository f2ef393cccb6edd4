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
import { auditTraceScopes } from '../core/policy/scopeAudit';
import { traceFilePath } from '../core/trace/traceFiles';
import { describeVerification } from '../core/trace/workspaceVerify';
import { parseCliArgs, usageError } from './cliArgs';
import { governedWorkspaceFrom } from './governedWorkspace';
import type { CliCommand } from './cliCommand';
import { describeLogSignatures, describeSigners, verifyLogs } from './signedVerification';
import { managedPolicy } from '../core/managed/managedPolicy';

const USAGE = `governor check: one pass/fail gate for CI

Usage: governor check [--workspace DIR] [--require-signatures]

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
Exit 0 when everything passes, 1 when anything fails, 2 on bad arguments.
`;

export const checkCommand: CliCommand = {
  name: 'check',
  summary: 'CI gate: intents file valid, trace verifies, every traced change inside its intent scope (--require-signatures: all signed)',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(args, { workspace: { type: 'string' }, 'require-signatures': { type: 'boolean' } });
    if (!parsed.ok) return usageError(io, 'check', parsed.message);
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
    const { logs, signers } = await verifyLogs(root, io.env, requireSignatures);
    for (const { log, result } of logs) {
      const bad = result.status === 'tampered';
      out(`${bad ? 'FAIL ' : 'ok   '} ${log}: ${describeVerification(result)}`);
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

    if (snapshot.valid) {
      const audit = await auditTraceScopes(traceFilePath(root), snapshot.intents, await detectCaseInsensitive(root));
      if (audit.violations.length === 0) out(`ok    scope: ${audit.checked} traced change(s) checked, all inside their intent's owned_scope`);
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
