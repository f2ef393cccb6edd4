import { gitText } from '../core/git/gitRun';
import type { BaseComparison } from '../core/trace/baseRecords';
import type { ChosenBase } from '../core/trace/branchBase';
import type { SignatureRun } from '../core/trace/signatureAudit';
import { SIGNERS_DIR } from '../core/signing/workspaceSigners';

/** The lines `check` prints for one log's comparison; `fail` says whether it failed. */
export function describeComparison(c: BaseComparison, base: ChosenBase): { fail: boolean; lines: string[] } {
  if (!c.dropped) {
    return { fail: false, lines: [`ok    ${c.log}: all ${c.baseRecords} record(s) of ${base.said} are still there, byte for byte; the branch added ${c.added.length}`] };
  }
  const d = c.dropped;
  const what = [d.id && `id ${d.id}`, d.intent && `intent ${d.intent}`, d.agent && `agent ${d.agent}`].filter(Boolean).join(', ');
  const how = d.changedAt ? `is changed (the record with its id is now line ${d.changedAt}, with other bytes)` : 'is gone';
  const lines = [`FAIL  ${c.log}: record ${d.baseLine} of the base's log (${what || 'unreadable record'}) ${how}: the branch must keep every record the base held`];
  if (d.commit) lines.push(`        dropped by ${d.commit.sha.slice(0, 12)} "${d.commit.subject}" (${d.commit.author})`);
  lines.push(`        restore the base's records: git show ${base.commit.slice(0, 12)}:./${c.log} shows them; keep both sides' lines when merging (${c.log} is merge=union), and do not revert or cut the log`);
  return { fail: true, lines };
}

/** Names of `.pub` files the branch added since the base (new signers a reviewer should look at). */
export async function signersAddedSince(root: string, base: string): Promise<string[]> {
  const out = await gitText(root, ['diff', '--name-only', '--diff-filter=A', base, '--', `${SIGNERS_DIR}/`]);
  if (!out) return [];
  return out
    .split('\n')
    .filter((f) => /^[^/]+\.pub$/.test(f.slice(f.indexOf(`${SIGNERS_DIR}/`) + SIGNERS_DIR.length + 1)))
    .map((f) => f.slice(f.lastIndexOf('/') + 1, -'.pub'.length));
}

/** Whether any of `lines` (1-based, sorted) is signed by one of `names` according to the audit's runs. */
export function signedByAnyOf(runs: SignatureRun[], lines: number[], names: ReadonlySet<string>): { signer: string; from: number; to: number }[] {
  const found: { signer: string; from: number; to: number }[] = [];
  const added = new Set(lines);
  for (const run of runs) {
    if (!run.signer || !names.has(run.signer) || (run.verdict !== 'signed' && run.verdict !== 'revoked')) continue;
    for (let line = run.from; line <= run.to; line += 1) {
      if (added.has(line)) {
        found.push({ signer: run.signer, from: run.from, to: run.to });
        break;
      }
    }
  }
  return found;
}
