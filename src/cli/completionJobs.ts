import type * as ChildProcesses from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BridgeRequest } from '../core/agents/common/nativeCall';
import { expectedFiles } from '../core/bridge/selfCompletions';

/** A change a one-shot hook process allowed whose post the agent will not send, for its completion worker. */
export interface CompletionJob {
  root: string;
  /** The post the change would have had. */
  post: BridgeRequest;
  /** What the tool leaves in each file when it runs as asked, read before it ran. */
  files: { abs: string; expected?: string }[];
}

/**
 * Changes whose post the agent will not send, allowed by a one-shot hook process (no resident governor: it is
 * off, or none came up): each goes to `node <hook.js> complete-job <file>`, started detached with no pipes to us,
 * which records it once the tool wrote it (runCompletionJob), so it is on the record within moments rather than
 * at a later reconciliation. The file is private to the user (it holds the content written).
 */
export function detachedCompletions(home: string, entry: string, root: string): (post: BridgeRequest) => void {
  return (post) => {
    const dir = join(home, 'hook-jobs');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `complete-${randomUUID()}.json`);
    const job: CompletionJob = { root, post, files: expectedFiles(post.calls) };
    writeFileSync(file, JSON.stringify(job), { mode: 0o600, flag: 'wx' });
    // Required on use: most hook processes hand nothing off.
    const { spawn } = require('node:child_process') as typeof ChildProcesses;
    spawn(process.execPath, [entry, 'complete-job', file], { detached: true, stdio: 'ignore' }).unref();
  };
}
