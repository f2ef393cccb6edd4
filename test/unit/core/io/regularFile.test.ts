import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeProblem, readRegularFile, readRegularFileSync, type RegularFileRead } from '../../../../src/core/io/regularFile';

function problemOf(read: RegularFileRead) {
  assert.ok(!read.ok, 'expected a refusal');
  return read.problem;
}

describe('regular-file reader', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-regular-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  for (const [name, read] of [['sync', (p: string, o: Parameters<typeof readRegularFileSync>[1]) => Promise.resolve(readRegularFileSync(p, o))], ['async', readRegularFile]] as const) {
    describe(name, () => {
      it('reads a regular file whole', async () => {
        await writeFile(join(dir, 'a.txt'), 'hello');
        const result = await read(join(dir, 'a.txt'), { maxBytes: 5 });
        assert.ok(result.ok);
        assert.equal(result.bytes.toString(), 'hello');
      });

      it('says a missing file is missing', async () => {
        assert.equal(problemOf(await read(join(dir, 'nope'), { maxBytes: 10 })).kind, 'missing');
        await writeFile(join(dir, 'file'), '');
        assert.equal(problemOf(await read(join(dir, 'file', 'below'), { maxBytes: 10 })).kind, 'missing');
      });

      it('refuses a FIFO without waiting for a writer, and names it', async () => {
        execFileSync('mkfifo', [join(dir, 'pipe')]);
        const problem = problemOf(await read(join(dir, 'pipe'), { maxBytes: 10 }));
        assert.equal(problem.kind, 'not_regular');
        assert.equal(describeProblem('src/pipe', problem), 'src/pipe is a FIFO (named pipe), not a regular file: refused');
      });

      it('refuses /dev/zero as a device before reading a byte', async function () {
        if (!existsSync('/dev/zero')) this.skip();
        const problem = problemOf(await read('/dev/zero', { maxBytes: 1024 }));
        assert.equal(problem.kind, 'not_regular');
        assert.match(describeProblem('/dev/zero', problem), /is a character device, not a regular file: refused$/);
      });

      it('refuses a directory with EISDIR', async () => {
        await mkdir(join(dir, 'sub'));
        const problem = problemOf(await read(join(dir, 'sub'), { maxBytes: 10 }));
        assert.deepEqual([problem.kind, problem.errno], ['not_regular', 'EISDIR']);
      });

      it('refuses a file over the cap without reading it', async () => {
        await writeFile(join(dir, 'big'), 'x'.repeat(11));
        const problem = problemOf(await read(join(dir, 'big'), { maxBytes: 10 }));
        assert.deepEqual([problem.kind, problem.errno], ['too_large', 'EFBIG']);
        assert.equal(describeProblem('big', problem), 'big is at least 11 bytes, over the 10-byte limit: refused');
      });

      it('follows a link by default, and refuses it with noFollow', async () => {
        await writeFile(join(dir, 'target'), 't');
        await symlink(join(dir, 'target'), join(dir, 'link'));
        const followed = await read(join(dir, 'link'), { maxBytes: 10 });
        assert.ok(followed.ok);
        const problem = problemOf(await read(join(dir, 'link'), { maxBytes: 10, noFollow: true }));
        assert.equal(problem.kind, 'not_regular');
        assert.match(describeProblem('link', problem), /is a symbolic link, not a regular file/);
      });
    });
  }

  it('reads a file above the synchronous threshold through the thread pool, whole', async () => {
    const content = Buffer.alloc(3 * 1024 * 1024 + 7, 'y');
    await writeFile(join(dir, 'large'), content);
    const result = await readRegularFile(join(dir, 'large'), { maxBytes: 4 * 1024 * 1024 });
    assert.ok(result.ok);
    assert.ok(result.bytes.equals(content));
  });
});
