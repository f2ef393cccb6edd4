import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tryLeaseFolder } from '../../../../src/core/mcp/workspaceLease';
import { bundledScript } from '../../../support/bundledScript';

/** A window starting on `folder`: resolves with what it became once it says so. */
function startWindow(folder: string, dir: string): { child: ChildProcess; role: Promise<'served' | 'attached'> } {
  const child = spawn(process.execPath, [bundledScript(join(__dirname, '..', '..', '..', 'support', 'leaseChild.ts')), 'try', folder, dir], { stdio: ['pipe', 'pipe', 'pipe'] });
  const role = new Promise<'served' | 'attached'>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /(served|attached)\n/.exec(out);
      if (match) resolve(match[1] as 'served' | 'attached');
    });
    child.once('exit', (code) => reject(new Error(`window exited (${code}) before choosing: ${out}`)));
  });
  return { child, role };
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('workspace lease: one serving window per folder', function () {
  this.timeout(60_000);
  let dir: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ig-lease-'));
  });
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.kill('SIGKILL');
      await exited(child);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('of six windows starting at once on one folder, exactly one serves', async () => {
    const windows = Array.from({ length: 6 }, () => startWindow('/work/project', dir));
    children.push(...windows.map((w) => w.child));
    const roles = await Promise.all(windows.map((w) => w.role));
    assert.deepEqual(roles.filter((r) => r === 'served').length, 1, roles.join(' '));
  });

  it('windows on different folders each serve their own', async () => {
    const a = startWindow('/work/a', dir);
    const b = startWindow('/work/b', dir);
    children.push(a.child, b.child);
    assert.deepEqual([await a.role, await b.role], ['served', 'served']);
  });

  it('the lease of a serving window that was killed is taken over by the next window', async () => {
    const first = startWindow('/work/project', dir);
    children.push(first.child);
    assert.equal(await first.role, 'served');
    const second = startWindow('/work/project', dir);
    children.push(second.child);
    assert.equal(await second.role, 'attached');
    first.child.kill('SIGKILL');
    await exited(first.child);
    const third = startWindow('/work/project', dir);
    children.push(third.child);
    assert.equal(await third.role, 'served');
  });

  it('a window that closes gives the lease back to the next one', async () => {
    const first = startWindow('/work/project', dir);
    children.push(first.child);
    assert.equal(await first.role, 'served');
    first.child.stdin!.end();
    await exited(first.child);
    const attempt = await tryLeaseFolder('/work/project', dir);
    assert.equal(attempt.held, true);
    if (attempt.held) await attempt.lease.release();
  });

  it('a live holder keeps its lease, and the refusal says who holds it', async () => {
    const first = await tryLeaseFolder('/work/project', dir);
    assert.equal(first.held, true);
    const second = await tryLeaseFolder('/work/project', dir);
    assert.equal(second.held, false);
    if (!second.held) assert.match(second.why, new RegExp(`pid ${process.pid}`));
    if (first.held) await first.lease.release();
  });
});
