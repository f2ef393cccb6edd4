import { describeSignatureCounts, describeSignatureRuns } from '../core/trace/signatureWords';
import { signatureCacheDir } from '../core/signing/verifiedSignatureCache';
import { loadWorkspaceSigners, type SignerSet } from '../core/signing/workspaceSigners';
import { defaultAnchorDir } from '../core/trace/anchorStore';
import { createAnchorStore } from '../core/trace/traceStack';
import { verifyWorkspaceLogs, type LogVerification } from '../core/trace/workspaceVerify';
import { nameKeyPeople } from './keyPeople';

/**
 * Both logs verified as `trace verify` and `check` do: chains and anchors, and with `signatures` each
 * record's signature against the workspace's signers (signatures this machine found valid before are
 * remembered beside the anchors, so a second verify checks only new records). Unknown and revoked keys' runs name
 * the person git says they belong to.
 */
export async function verifyLogs(root: string, env: NodeJS.ProcessEnv, signatures: boolean, acceptedNotes?: ReadonlyMap<string, ReadonlySet<string>>): Promise<{ logs: LogVerification[]; signers?: SignerSet }> {
  const anchorDir = defaultAnchorDir(env);
  const anchors = createAnchorStore({ workspaceRoot: root, anchorDir });
  if (!signatures) return { logs: await verifyWorkspaceLogs(root, anchors, undefined, acceptedNotes) };
  const signers = await loadWorkspaceSigners(root);
  const logs = await verifyWorkspaceLogs(root, anchors, { signers, cacheDir: signatureCacheDir(anchorDir) }, acceptedNotes);
  await nameKeyPeople(logs, signers);
  return { logs, signers };
}

/** `signers: alice@laptop, ci (trusted); old (revoked)`, and a line per .pub file that is not a usable key. */
export function describeSigners(signers: SignerSet): string[] {
  const names = (status: 'trusted' | 'revoked') => signers.signers.filter((s) => s.status === status).map((s) => s.name);
  const trusted = names('trusted');
  const revoked = names('revoked');
  const parts = [trusted.length ? `${trusted.join(', ')} (trusted)` : 'none trusted'];
  if (revoked.length) parts.push(`${revoked.join(', ')} (revoked)`);
  return [`signers: ${parts.join('; ')}`, ...signers.problems.map((p) => `signer file ${p.file}: ${p.problem}`)];
}

/** The signature part of one log's report: counts, then the runs of lines, indented. */
export function describeLogSignatures(verification: LogVerification, indent: string): string[] {
  const report = verification.signatures;
  if (!report) return [];
  return [`${indent}signatures: ${describeSignatureCounts(report)}`, ...describeSignatureRuns(report).map((line) => `${indent}  ${line}`)];
}
