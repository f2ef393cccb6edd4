import { strict as assert } from 'node:assert';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGateFile, writeGateProbe, writeGateProgram, WRITE_GATE_FAILED } from '../../../../src/core/sandbox/writeGate';
import { removeTree } from '../../../support/removeTree';

const SOURCES = join(__dirname, '..', '..', '..', '..', 'src', 'core', 'sandbox');

/** The machine code of `source` as GNU as makes it, or undefined when that assembler is not installed. */
function assembled(source: string, as: string, objcopy: string): Buffer | undefined {
  if (spawnSync(as, ['--version']).status !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ig-gate-asm-'));
  try {
    execFileSync(as, ['-o', join(dir, 'g.o'), join(SOURCES, source)]);
    execFileSync(objcopy, ['-O', 'binary', '-j', '.text', join(dir, 'g.o'), join(dir, 'g.bin')]);
    return readFileSync(join(dir, 'g.bin'));
  } finally {
    execFileSync('rm', ['-rf', dir]);
  }
}

/** The write gate: Landlock keeps a confined command's writes (FIFOs included) to its writable folders. */
describe('the write gate (network: deny): files open for writing only beneath the folders it is given', function () {
  this.timeout(30_000);
  let dir: string;
  let gate: string;

  before(async function () {
    if (process.platform !== 'linux' || !writeGateProgram()) this.skip();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'ig-gate-')));
    gate = (await writeGateFile(join(dir, 'home'))) as string;
    execFileSync('mkdir', ['-p', join(dir, 'work'), join(dir, 'elsewhere')]);
  });
  after(async () => dir && removeTree(dir));

  const run = (args: string[]) => spawnSync(gate, args, { encoding: 'utf8' });

  for (const [arch, source, as, objcopy] of [
    ['x64', 'writeGate.x64.s', 'as', 'objcopy'],
    ['arm64', 'writeGate.arm64.s', 'aarch64-linux-gnu-as', 'aarch64-linux-gnu-objcopy'],
  ] as const) {
    it(`holds exactly the machine code of ${source} (${arch})`, function () {
      const code = assembled(source, as, objcopy);
      if (!code) this.skip(); // that assembler is not on this machine
      const program = writeGateProgram(arch) as Buffer;
      assert.ok(program.subarray(120).equals(code), 'the bytes in writeGate.ts differ from the assembly: reassemble and paste');
    });
  }

  it('lets the command write beneath its folders and /dev, and nowhere else', () => {
    const out = run([join(dir, 'work'), '/dev', '--', '/bin/sh', '-c', `echo a > ${dir}/work/a && echo wrote-inside; echo b > /dev/null && echo wrote-dev-null; echo c > ${dir}/elsewhere/c || echo refused-elsewhere`]);
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(out.stdout.trim().split('\n'), ['wrote-inside', 'wrote-dev-null', 'refused-elsewhere']);
    assert.match(out.stderr, /Permission denied/);
    assert.equal(readFileSync(join(dir, 'work', 'a'), 'utf8'), 'a\n');
  });

  it('a FIFO outside its folders cannot be opened for writing, even read-write', async () => {
    const fifo = join(dir, 'elsewhere', 'control');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
    let heard = '';
    reader.stdout.on('data', (d: Buffer) => (heard += d.toString()));
    try {
      const out = run([join(dir, 'work'), '--', '/bin/sh', '-c', `echo pwned > ${fifo} || echo refused-w; (exec 3<>${fifo}) || echo refused-rw`]);
      assert.deepEqual(out.stdout.trim().split('\n'), ['refused-w', 'refused-rw'], out.stderr);
      assert.equal(heard, '');
    } finally {
      reader.kill();
    }
  });

  it('runs nothing when it cannot confine: a folder that is missing, or no command after --', () => {
    const marker = join(dir, 'work', 'ran');
    for (const args of [[join(dir, 'missing'), '--', '/bin/sh', '-c', `touch ${marker}`], [join(dir, 'work'), '/bin/sh', '-c', `touch ${marker}`], [join(dir, 'work'), '--']]) {
      const out = run(args);
      assert.equal(out.status, WRITE_GATE_FAILED, JSON.stringify(args));
      assert.match(out.stderr, /the command was not run: Landlock could not confine its writes/);
    }
    assert.equal(spawnSync('test', ['-e', marker]).status, 1, 'the command ran');
  });

  it("passes the command's arguments and environment through unchanged", () => {
    const out = spawnSync(gate, [dir, '--', '/bin/sh', '-c', 'printf "%s|%s|%s" "$0" "$1" "$IG_GATE_SEEN"', 'zero', 'one two'], { encoding: 'utf8', env: { IG_GATE_SEEN: 'yes' } });
    assert.equal(out.stdout, 'zero|one two|yes');
  });

  it('the probe says this kernel confines, and says why not when a gate cannot', async () => {
    assert.equal(await writeGateProbe(gate), undefined);
    const broken = join(dir, 'broken-gate');
    writeFileSync(broken, `#!/bin/sh\necho 'intent-governor: the command was not run: Landlock could not confine its writes' >&2\nexit ${WRITE_GATE_FAILED}\n`);
    chmodSync(broken, 0o755);
    assert.match((await writeGateProbe(broken)) ?? '', /Landlock could not confine/);
  });
});
