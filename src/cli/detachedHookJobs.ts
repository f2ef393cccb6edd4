import type * as ChildProcesses from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DetachedHookJob, HookJobLauncher } from '../core/userHooks/detachedHookJob';

/**
 * Background hooks of a one-shot hook process: each goes to `node <hook.js> hook-job <file>`, started detached in
 * its own session with no pipes to us, so the agent gets its answer at once and the hook still runs to the end.
 */
export function detachedHookJobs(home: string, entry: string): HookJobLauncher {
  return {
    launch(job: DetachedHookJob) {
      // Jobs wait for their worker under the governor's home, private to the user.
      const dir = join(home, 'hook-jobs');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${randomUUID()}.json`);
      writeFileSync(file, JSON.stringify(job), { mode: 0o600, flag: 'wx' });
      // Required on use: most hook processes start no background hook.
      const { spawn } = require('node:child_process') as typeof ChildProcesses;
      spawn(process.execPath, [entry, 'hook-job', file], { detached: true, stdio: 'ignore' }).unref();
    },
  };
}
