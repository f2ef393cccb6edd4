import { gitText } from '../git/gitRun';
import { compareWithBase, mergeBaseWithHead, resolveCommit, type BaseComparison } from './baseRecords';
import { GOVERNANCE_LOG_FILE, TRACE_FILE } from './traceFiles';
import { WORKSPACE_LOGS } from './workspaceVerify';

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
  // Never an option to git, whoever typed it.
  if (wanted.startsWith('-')) return `${wanted} is not a ref: a branch, tag or commit never starts with '-'`;
  const commit = await resolveCommit(root, wanted);
  if (!commit) return `${wanted} is not a commit git knows here (in CI, fetch it: actions/checkout with fetch-depth: 0)`;
  if (exact) return { commit, said: `${wanted} (${commit.slice(0, 12)}, ${why})` };
  const base = await mergeBaseWithHead(root, commit);
  if (!base) return `${wanted} shares no history with HEAD`;
  return { commit: base, said: `the merge base of ${wanted} and HEAD (${base.slice(0, 12)}, ${why})` };
}

/** Both logs of the workspace compared with the base: what the branch added to each, and what it dropped. */
export async function compareLogsWithBase(root: string, base: string): Promise<BaseComparison[]> {
  return Promise.all(WORKSPACE_LOGS.map(({ log, fields }) => compareWithBase(root, log, fields, base)));
}


/** The lines (1-based) a branch added to each log since its merge base with `ref`: the inspector's "since" view. */
export interface LinesAddedSince {
  said: string;
  trace: ReadonlySet<number>;
  governance: ReadonlySet<number>;
}

/** What the branch added since the merge base of `ref` and HEAD, as `governor report --base REF` counts it; a string says why not. */
export async function linesAddedSince(root: string, ref: string): Promise<LinesAddedSince | string> {
  const base = await chooseBase(root, ref, false, {});
  if (base === undefined || typeof base === 'string') return base ?? `${ref} cannot be compared with`;
  const comparisons = await compareLogsWithBase(root, base.commit);
  const added = (log: string) => new Set(comparisons.find((c) => c.log === log)?.added ?? []);
  return { said: base.said.replace(/, --base\)$/u, ')'), trace: added(TRACE_FILE), governance: added(GOVERNANCE_LOG_FILE) };
}
