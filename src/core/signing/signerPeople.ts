import { gitText } from '../git/gitRun';

/**
 * Who a key belongs to, as far as git can tell, for messages that must name a person: the author of the commit
 * that added its `.pub` (followed through a move into revoked/), or of the commit that added the first record it
 * signed. Undefined where git cannot say: no git, not a repository, a shallow clone (its first commit would claim
 * every file), or nothing committed yet.
 */
export interface SignerPeople {
  pubAuthor(file: string): Promise<string | undefined>;
  /** `hash` is the record's `hash`; `logs` the workspace-relative logs it may be in. */
  recordAuthor(hash: string, logs: readonly string[]): Promise<string | undefined>;
}

const TIMEOUT_MS = 5_000;

export function gitSignerPeople(root: string): SignerPeople {
  let usable: Promise<boolean> | undefined;
  const memo = new Map<string, Promise<string | undefined>>();
  const ask = (key: string, args: string[], pick: (lines: string[]) => string | undefined) => {
    let answer = memo.get(key);
    if (!answer) {
      usable ??= git(root, ['rev-parse', '--is-shallow-repository']).then((out) => out === 'false');
      answer = usable.then(async (ok) => {
        if (!ok) return undefined;
        const out = await git(root, args);
        return out ? pick(out.split('\n').filter(Boolean)) : undefined;
      });
      memo.set(key, answer);
    }
    return answer;
  };
  return {
    pubAuthor: (file) => ask(`pub:${file}`, ['log', '--follow', '--diff-filter=A', '--format=%an <%ae>', '--', file], (lines) => lines.at(-1)),
    recordAuthor: (hash, logs) => ask(`record:${hash}`, ['log', `-S${hash}`, '--reverse', '--format=%an <%ae>', '--', ...logs], (lines) => lines[0]),
  };
}

/** git answers in milliseconds; a hung or huge repository must not hold a verify for long. */
function git(cwd: string, args: string[]): Promise<string | undefined> {
  return gitText(cwd, args, { timeoutMs: TIMEOUT_MS, maxBytes: 1024 * 1024 });
}
