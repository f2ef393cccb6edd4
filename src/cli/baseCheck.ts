import { gitText } from '../core/git/gitRun';
import { compareWithBase, mergeBaseWithHead, resolveCommit, type BaseComparison } from '../core/trace/baseRecords';
import type { SignatureRun } from '../core/trace/signatureAudit';
import { SIGNERS_DIR } from '../core/signing/workspaceSigners';
import { WORKSPACE_LOGS } from '../core/trace/workspaceVerify';

/** The commit a branch is judged against, and how it was chosen (said in the output). */
export interface ChosenBase {
  commit: string;
  said: string;
}

/**
 * `--base REF`: the merge base of REF and HEAD (what the branch started from; a branch behind its target is not
 * blamed for records it never had), or REF itself with `exact` (a push's previous tip: a force-push that dropped
 * records fails). Without `--base`, in CI: the pull request's target (`GITHUB_BASE_REF`), else the remote's
 * default branch. Undefined when there is nothing to compare with; a string when the ref cannot be used.
 */
export async function chooseBase(root: string, ref: string | undefined, exact: boolean, env: NodeJS.ProcessEnv): Promise<ChosenBase | string | undefined> {
  let wanted = ref;
  let why = '--base';
  if (wanted === undefined) {
    if (!env.CI) return undefined;
    const target = env.GITHUB_BASE_REF;
    if (target) {
      wanted = (await resolveCommit(root, `origin/${target}`)) ? `origin/${target}` : target;
      why = 'the pull request\'s target (GITHUB_BASE_REF)';
    } else {
      const head = await gitText(root, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']);
      if (!head) return undefined;
      wanted = head;
      why = 'the default branch';
    }
  }
  const commit = await resolveCommit(root, wanted);
  if (!commit) return `${wanted} is not a commit git knows here (in CI, fetch it: actions/checkout with fetch-depth: 0)`;
  if (exact) return { commit, said: `${wanted} (${commit.slice(0, 12)}, ${why})` };
  const base = await mergeBaseWithHead(root, commit);
  if (!base) return `${wanted} shares no history with HEAD`;
  return { commit: base, said: `the merge base of ${wanted} and HEAD (${base.slice(0, 12)}, ${why})` };
}

export async function compareLogsWithBase(root: string, base: string): Promise<BaseComparison[]> {
  return Promise.all(WORKSPACE_LOGS.map(({ log, fields }) => compareWithBase(root, log, fields, base)));
}

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
