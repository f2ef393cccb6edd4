import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { currentProcess, localProcessGone, pidAlive } from '../../../../src/core/io/processIdentity';

describe('processIdentity', () => {
  it('counts a killed process its parent has not reaped yet (a zombie) as gone', async function () {
    if (process.platform !== 'linux') this.skip();
    // The backgrounded `sleep 0` exits at once; its parent, exec'd into `sleep 3`, never waits for it.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 3'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
      const zombie = Number(chunk.toString().trim());
      await new Promise((resolve) => setTimeout(resolve, 300));
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
