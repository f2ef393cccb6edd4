import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { buildMutationRecord } from '../../../../src/core/trace/traceRecord';
import { assertAgentTraceRecord } from '../../../support/agentTraceSchema';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';
import { removeTree } from '../../../support/removeTree';
import { sandboxOrSkip } from '../../../support/sandboxes';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

/** Every file outside the owned scope (src/auth/**), with its bytes' hash, plus the sibling folder a command might reach. */
async function outsideScope(root: string, sibling: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const path = join(dir, name);
      if (path === join(root, 'src/auth')) continue;
      const stat = await lstat(path);
      if (stat.isDirectory()) await walk(path);
      else found.set(path, stat.isSymbolicLink() ? `link:${await readlink(path)}` : createHash('sha256').update(await readFile(path)).digest('hex'));
    }
  };
  await walk(root);
  await walk(sibling);
  return found;
}

/**
 * The routes of issue 22, each tried with a human approving whatever the governor asks: every file outside the
 * intent's scope stays byte-identical, because the command runs where only the scope is writable.
 */
describe('run_command in the sandbox: routes out of the scope stay closed even when a human approves', function () {
  this.timeout(60_000);
  let h: Harness;
  let sibling: string;
  const prefix = () => basename(h.root);

  beforeEach(async function () {
    await sandboxOrSkip(this);
    h = await createHarness({
      files: {
        'src/auth/a.ts': 'export const a = 1;\n',
        'src/other/c.ts': 'export const c = 1;\n',
        'package.json': JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'echo pwned >> src/other/c.ts; echo pwned > ../$(basename $PWD)-npm' } }),
      },
    });
    sibling = join(dirname(h.root), `${basename(h.root)}-outside`);
    await mkdir(sibling, { recursive: true });
    await writeFile(join(sibling, 'keep.txt'), 'outside\n');
    execFileSync('git', ['init', '-q'], { cwd: h.root, env: GIT_ENV });
    execFileSync('git', ['add', '-A'], { cwd: h.root, env: GIT_ENV });
    execFileSync('git', ['commit', '-qm', 'base'], { cwd: h.root, env: GIT_ENV });
    // A person's uncommitted work, which `git checkout --` would throw away.
    await writeFile(join(h.root, 'src/other/c.ts'), 'export const c = 2; // uncommitted\n');
    const selected = await h.call('select_active_intent', { intent_id: 'auth-refactor' });
    assert.ok(selected.ok);
  });

  afterEach(async () => {
    if (!h) return;
    for (const leftover of ['x', 'x.tar', 'x.bundle', 'x-patches', 'npm', 'py', 'node', 'config']) await removeTree(join(dirname(h.root), `${prefix()}-${leftover}`));
    await removeTree(sibling);
    await h.dispose();
  });

  const routes: Array<[string, (p: string, outside: string) => string]> = [
    ['a symlink made and followed in one command, into .orchestration', () => 'ln -s ../../.orchestration src/auth/o && echo "# pwned" >> src/auth/o/active_intents.yaml'],
    ['a symlink out of the workspace, then cp through it', (_p, outside) => `ln -s ${outside} src/auth/lo && cp src/auth/a.ts src/auth/lo/`],
    ['a hardlink to an out-of-scope file, then append', () => 'ln src/other/c.ts src/auth/hl.ts && echo pwned >> src/auth/hl.ts'],
    ['git config --file ../x', (p) => `git config --file ../${p}-config a.b c`],
    ['git checkout -- an out-of-scope file with uncommitted work', () => 'git checkout -- src/other/c.ts'],
    ['git restore --source=HEAD an out-of-scope file', () => 'git restore --source=HEAD src/other/c.ts'],
    ['git clone . ../x', (p) => `git clone -q . ../${p}-x`],
    ['git archive -o ../x', (p) => `git archive -o ../${p}-x.tar HEAD`],
    ['git bundle create ../x', (p) => `git bundle create ../${p}-x.bundle HEAD`],
    ['git format-patch -o ../x', (p) => `git format-patch --root -o ../${p}-x-patches HEAD`],
    ['a python3 script that writes outside', (p) => `printf 'open("src/other/c.ts","a").write("pwned")\\nopen("../${p}-py","w").write("pwned")\\n' > src/auth/gen.py && python3 src/auth/gen.py`],
    ['a node script that writes outside', (p) => `printf 'require("fs").appendFileSync("src/other/c.ts","pwned");require("fs").writeFileSync("../${p}-node","pwned")\\n' > src/auth/gen.cjs && node src/auth/gen.cjs`],
    ['npm test whose committed script writes elsewhere', () => 'npm test --silent'],
    ['a redirection through a variable', () => 'F=src/other/c.ts; echo pwned >> $F'],
    ['a write into .git/ from a subfolder', () => 'cd src/auth && echo pwned >> ../../.git/config'],
  ];

  for (const [name, command] of routes) {
    it(name, async () => {
      const before = await outsideScope(h.root, sibling);
      h.approver.script(...Array<boolean>(5).fill(true));
      const result = await h.call('run_command', { command: command(prefix(), sibling) });
      const after = await outsideScope(h.root, sibling);
      assert.deepEqual([...after.entries()].filter(([path, hash]) => before.get(path) !== hash), [], `changed outside the scope: ${JSON.stringify(result)}`);
      assert.deepEqual([...before.keys()].filter((path) => !after.has(path)), []);
      for (const leftover of ['x', 'x.tar', 'x.bundle', 'x-patches', 'npm', 'py', 'node', 'config']) assert.equal(existsSync(join(dirname(h.root), `${prefix()}-${leftover}`)), false, `${leftover} was created outside the workspace`);
      // Refused by the text policy up front, or by the kernel and reported as such: never a silent success.
      assert.notEqual(codeOf(result), 'ok', JSON.stringify(result));
    });
  }

  it('a refused write comes back as SCOPE_VIOLATION naming the path', async () => {
    h.approver.script(true);
    const result = await h.call('run_command', { command: 'F=src/other/c.ts; echo pwned >> $F' });
    assert.equal(codeOf(result), 'SCOPE_VIOLATION');
    assert.ok(!result.ok);
    assert.deepEqual(result.error.meta?.paths, ['src/other/c.ts']);
  });
});

describe("run_command in the sandbox: the administrator's protected paths inside the scope stay read-only", function () {
  this.timeout(60_000);
  let h: Harness;
  let managedDir: string;
  const saved = process.env.INTENT_GOVERNOR_MANAGED_FILE;

  beforeEach(async function () {
    await sandboxOrSkip(this);
    h = await createHarness({ files: { 'src/auth/a.ts': 'one\n', 'src/auth/keys/prod.pem': 'secret\n' } });
    managedDir = await mkdtemp(join(tmpdir(), 'ig-managed-'));
    await writeFile(join(managedDir, 'managed.json'), JSON.stringify({ protectedPaths: ['src/auth/keys/**'] }));
    process.env.INTENT_GOVERNOR_MANAGED_FILE = join(managedDir, 'managed.json');
    assert.ok((await h.call('select_active_intent', { intent_id: 'auth-refactor' })).ok);
  });

  afterEach(async () => {
    if (saved === undefined) delete process.env.INTENT_GOVERNOR_MANAGED_FILE;
    else process.env.INTENT_GOVERNOR_MANAGED_FILE = saved;
    await removeTree(managedDir);
    await h?.dispose();
  });

  it('a command writing through a variable into a managed folder inside src/auth leaves it byte-identical', async () => {
    h.approver.script(true, true);
    const result = await h.call('run_command', { command: 'F=src/auth/keys/prod.pem; echo pwned >> $F; echo ok > src/auth/b.ts' });
    assert.equal(await readFile(join(h.root, 'src/auth/keys/prod.pem'), 'utf8'), 'secret\n');
    assert.notEqual(codeOf(result), 'ok', JSON.stringify(result));
  });
});

describe('run_command in the sandbox: in-scope shell writes land headless and are traced', function () {
  this.timeout(60_000);
  let h: Harness;

  beforeEach(async function () {
    await sandboxOrSkip(this);
    h = await createHarness({ files: { 'src/auth/a.ts': 'one\n', 'src/auth/tests/x.test.ts': 'x\n', 'src/auth/tests/x.ts': 'x\n' } });
    assert.ok((await h.call('select_active_intent', { intent_id: 'auth-refactor' })).ok);
  });

  afterEach(async () => h?.dispose());

  it('echo ok > src/auth/new.ts lands without a human and the trace names it with its hash', async () => {
    const result = await h.call('run_command', { command: 'echo ok > src/auth/new.ts' });
    assert.equal(codeOf(result), 'ok');
    assert.equal(h.approver.requests.length, 0);
    assert.equal(await readFile(join(h.root, 'src/auth/new.ts'), 'utf8'), 'ok\n');
    const record = buildMutationRecord(h.trace.mutations[0], { workspaceRoot: h.root, toolVersion: 'test' });
    assertAgentTraceRecord(record);
    const files = (record.metadata as { files: Array<{ path: string; change: string; after_hash?: string }> }).files;
    assert.deepEqual(files.map((f) => [f.path, f.change]), [['src/auth/new.ts', 'created']]);
    assert.match(String(files[0].after_hash), /^sha256:/);
  });

  it('files a command changed without naming them are traced too, the ones it modified as modified', async () => {
    const result = await h.call('run_command', { command: 'for f in src/auth/*.ts; do echo two >> "$f"; done; mkdir -p src/auth/gen && echo g > src/auth/gen/g.ts' });
    assert.equal(codeOf(result), 'ok');
    const files = h.trace.mutations[0].files.map((f) => [f.path, f.after, 'before_unknown' in f]);
    assert.deepEqual(files, [
      ['src/auth/a.ts', 'one\ntwo\n', true],
      ['src/auth/gen/g.ts', 'g\n', false],
    ]);
    assert.match(result.ok ? result.output.text : '', /ran confined by bubblewrap|ran confined by sandbox-exec/);
  });

  it('a change under a root that the scope glob does not cover is recorded and reported (src/auth/.env is not in src/auth/**)', async () => {
    // Through a variable, so the text policy cannot name the file and only the snapshot can.
    const result = await h.call('run_command', { command: 'F=src/auth/.env; echo SECRET=1 > $F' });
    assert.equal(codeOf(result), 'SCOPE_VIOLATION');
    assert.ok(!result.ok);
    assert.deepEqual(result.error.meta?.outside_scope, ['src/auth/.env']);
    assert.deepEqual(h.trace.mutations[0].files.map((f) => f.path), ['src/auth/.env']);
  });
});
