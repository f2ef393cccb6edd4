import { strict as assert } from 'node:assert';
import { PathLocks } from '../../../../src/core/policy/pathLock';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('PathLocks', () => {
  it('runs calls for one path one at a time, in arrival order', async () => {
    const locks = new PathLocks();
    const events: string[] = [];
    let inside = 0;
    let maxInside = 0;
    const job = (name: string, steps: number) =>
      locks.run('/w/a.ts', async () => {
        inside += 1;
        maxInside = Math.max(maxInside, inside);
        events.push(`start ${name}`);
        for (let i = 0; i < steps; i += 1) await tick();
        events.push(`end ${name}`);
        inside -= 1;
        return name;
      });
    const results = await Promise.all([job('1', 3), job('2', 0), job('3', 2), job('4', 1)]);
    assert.deepEqual(results, ['1', '2', '3', '4']);
    assert.equal(maxInside, 1);
    assert.deepEqual(events, ['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3', 'start 4', 'end 4']);
  });

  it('lets different paths proceed at the same time', async () => {
    const locks = new PathLocks();
    let releaseA!: () => void;
    const a = locks.run('/w/a', () => new Promise<string>((resolve) => (releaseA = () => resolve('a'))));
    const b = await locks.run('/w/b', async () => 'b'); // would hang if /w/b waited for /w/a
    assert.equal(b, 'b');
    releaseA();
    assert.equal(await a, 'a');
  });

  it('releases the lock when a call fails, and forgets idle paths', async () => {
    const locks = new PathLocks();
    const failing = locks.run('/w/a', async () => {
      throw new Error('write failed');
    });
    const next = locks.run('/w/a', async () => 'after');
    await assert.rejects(failing, /write failed/);
    assert.equal(await next, 'after');
    assert.equal(locks.size, 0);

    await Promise.all(Array.from({ length: 50 }, (_, i) => locks.run(`/w/file${i % 5}`, async () => tick())));
    assert.equal(locks.size, 0);
  });
});
