import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { currentProcess, localProcessGone, pidAlive } from '../../../../src/core/io/processIdentity';
import { eventually } from '../../../support/lateApprover';

describe('processIdentity', () => {
  it('counts a killed process its parent has not reaped yet (a zombie) as gone', async function () {
    if (process.platform !== 'linux') this.skip();
    // The backgrounded child exits only once its parent has become `sleep` (exec'd, so it never waits for it):
    // exiting earlier would let the shell reap it, and there would be no zombie to look at.
    const script = 'p=$$; (while [ "$(cat /proc/$p/comm)" != sleep ]; do sleep 0.01; done) & echo $!; exec sleep 10';
    const parent = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
      const zombie = Number(chunk.toString().trim());
      await eventually(() => (procState(zombie) === 'Z' ? true : undefined), 'the child to become a zombie', 8000);
      assert.equal(pidAlive(zombie), true, 'signal 0 still answers for a zombie');
      assert.equal(localProcessGone(zombie, 0), true);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('does not count this live process as gone', () => {
    const self = currentProcess();
    assert.equal(localProcessGone(self.pid, self.start), false);
  });
});

/** Field 3 of /proc/<pid>/stat, or undefined once the pid is gone. */
function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

