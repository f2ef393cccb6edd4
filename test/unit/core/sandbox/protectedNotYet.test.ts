import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROTECTED_ENTRIES } from '../../../../src/core/paths/protectedPaths';
import { confinedCommandLine } from '../../../../src/core/sandbox/confinedCommandLine';
import { confinedInvocation } from '../../../../src/core/sandbox/confinedInvocation';
import { planConfinement, releaseConfinement } from '../../../../src/core/sandbox/confinedRun';
import { removePlaceholders } from '../../../../src/core/sandbox/placeholders';
import type { AvailableSandbox } from '../../../../src/core/sandbox/sandboxAvailability';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';
import { removeTree } from '../../../support/removeTree';
import { sandboxOrSkip } from '../../../support/sandboxes';

const intentsWith = (scope: string[]) => `active_intents:
  - id: "open-work"
    name: "Open work"
    status: "IN_PROGRESS"
    owned_scope: [${scope.map((s) => JSON.stringify(s)).join(', ')}]
    constraints: []
    acceptance_criteria: []
`;

/** Agent hooks and config a command could plant at the workspace root: each one runs code at the agent's next call. */
const PLANTED_AT_ROOT = ['.claude/settings.json', '.mcp.json', '.github/hooks/x.json', '.gemini/settings.json', '.cursor/hooks.json', '.opencode/plugins/x.js', 'opencode.json'];

/** A committed script that writes each path given: the text policy cannot see what it writes, only the kernel can. */
const PLANTER = 'for f in "$@"; do mkdir -p "$(dirname "$f")" 2>/dev/null; echo planted > "$f" 2>/dev/null || echo "refused $f" >&2; done; exit 0\n';

async function filesUnder(root: string, rel = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(root, rel), { withFileTypes: true }).catch(() => [])) {
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) found.push(`${path}/`, ...(await filesUnder(root, path)));
    else found.push(path);
  }
  return found;
}

describe('run_command in the sandbox: protected paths that do not exist yet cannot be made', function () {
  this.timeout(60_000);
  let h: Harness | undefined;

  beforeEach(async function () {
    await sandboxOrSkip(this);
  });
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });

  const planting = async (scope: string[], paths: string[]) => {
    h = await createHarness({ intents: intentsWith(scope), files: { 'src/auth/a.ts': 'a\n', 'scripts/plant.sh': PLANTER } });
    assert.ok((await h.call('select_active_intent', { intent_id: 'open-work' })).ok);
    const before = await filesUnder(h.root);
    h.approver.script(...Array<boolean>(5).fill(true));
    const result = await h.call('run_command', { command: `sh scripts/plant.sh ${paths.join(' ')}` });
    return { result, before, after: await filesUnder(h.root) };
  };

  it('with the scope "**", no agent hook or config lands at the workspace root, and the answer names what was refused', async () => {
    const { result, before, after } = await planting(['**'], [...PLANTED_AT_ROOT, 'src/auth/fine.ts']);
    const root = (h as Harness).root;
    for (const rel of PLANTED_AT_ROOT) assert.equal(existsSync(join(root, rel)), false, `${rel} landed: ${JSON.stringify(result)}`);
    assert.equal(await readFile(join(root, 'src/auth/fine.ts'), 'utf8'), 'planted\n');
    // The placeholders are gone again: the tree holds what it held, plus the one file in scope.
    assert.deepEqual(after.filter((p) => !before.includes(p)), ['src/auth/fine.ts']);
    assert.notEqual(codeOf(result), 'ok', JSON.stringify(result));
    assert.ok(!result.ok);
    for (const rel of ['.claude/settings.json', '.mcp.json', '.gemini/settings.json']) assert.ok((result.error.meta?.paths as string[]).some((p) => p.endsWith(rel)), `${rel} not named: ${JSON.stringify(result.error.meta)}`);
  });

  it('with a scope naming a file not written yet (NOTES.md), the root folder it opens holds no planted hook', async () => {
    const { result } = await planting(['src/auth/**', 'NOTES.md'], [...PLANTED_AT_ROOT, 'NOTES.md']);
    const root = (h as Harness).root;
    for (const rel of PLANTED_AT_ROOT) assert.equal(existsSync(join(root, rel)), false, `${rel} landed: ${JSON.stringify(result)}`);
    assert.equal(await readFile(join(root, 'NOTES.md'), 'utf8'), 'planted\n');
  });

  it('with the scope src/auth/**, no nested .git or .orchestration is left, in the scope folder or in a folder the command made', async () => {
    const nested = ['src/auth/.git/config', 'src/auth/.orchestration/active_intents.yaml', 'src/auth/n/.git/config', 'src/auth/n/m/.claude/settings.json', 'src/auth/n/.orchestration/active_intents.yaml'];
    const { result } = await planting(['src/auth/**'], [...nested, 'src/auth/n/ok.ts']);
    const root = (h as Harness).root;
    for (const rel of nested) assert.equal(existsSync(join(root, rel)), false, `${rel} landed: ${JSON.stringify(result)}`);
    assert.equal(existsSync(join(root, 'src/auth/n/.git')), false);
    assert.equal(await readFile(join(root, 'src/auth/n/ok.ts'), 'utf8'), 'planted\n');
    assert.ok(!result.ok);
    assert.deepEqual((result.error.meta?.protected_made as string[]).sort(), ['src/auth/n/.git', 'src/auth/n/.orchestration', 'src/auth/n/m/.claude']);
    assert.match(result.error.message, /refused src\/auth\/n\/\.git/);
  });

  it('git init in a new folder of the scope leaves no repository there (its hooks and fsmonitor would run)', async () => {
    h = await createHarness({ intents: intentsWith(['src/auth/**']), files: { 'src/auth/a.ts': 'a\n' } });
    assert.ok((await h.call('select_active_intent', { intent_id: 'open-work' })).ok);
    h.approver.script(...Array<boolean>(5).fill(true));
    const result = await h.call('run_command', { command: 'mkdir -p src/auth/repo && git init -q src/auth/repo' });
    assert.equal(existsSync(join(h.root, 'src/auth/repo/.git')), false, JSON.stringify(result));
    assert.equal(existsSync(join(h.root, 'src/auth/repo')), true);
  });
});

describe('run_command in the sandbox: a workspace under a package cache is not opened by the cache', function () {
  this.timeout(60_000);
  let home: string;
  let h: Harness | undefined;
  const saved = { HOME: process.env.HOME };

  beforeEach(async function () {
    await sandboxOrSkip(this);
    home = await realpath(await mkdtemp(join(tmpdir(), 'ig-cache-home-')));
    await mkdir(join(home, '.cache/checkouts'), { recursive: true });
    process.env.HOME = home;
    h = await createHarness({ parent: join(home, '.cache/checkouts'), files: { 'src/auth/a.ts': 'a\n', 'src/other/c.ts': 'c\n', 'scripts/plant.sh': PLANTER } });
    execFileSync('git', ['init', '-q'], { cwd: h.root });
    assert.ok((await h.call('select_active_intent', { intent_id: 'auth-refactor' })).ok);
  });

  afterEach(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await h?.dispose();
    h = undefined;
    await removeTree(home);
  });

  it('the intents file, .git/hooks and a file outside the scope stay as they were', async () => {
    const root = (h as Harness).root;
    assert.ok(root.startsWith(join(home, '.cache/')), root);
    const intents = await readFile(join(root, '.orchestration/active_intents.yaml'), 'utf8');
    (h as Harness).approver.script(...Array<boolean>(5).fill(true));
    const result = await (h as Harness).call('run_command', { command: 'sh scripts/plant.sh .orchestration/active_intents.yaml .git/hooks/post-checkout src/other/c.ts src/auth/b.ts' });
    assert.equal(await readFile(join(root, '.orchestration/active_intents.yaml'), 'utf8'), intents);
    assert.equal(existsSync(join(root, '.git/hooks/post-checkout')), false);
    assert.equal(await readFile(join(root, 'src/other/c.ts'), 'utf8'), 'c\n');
    assert.equal(await readFile(join(root, 'src/auth/b.ts'), 'utf8').catch(() => JSON.stringify(result)), 'planted\n');
  });
});

describe("run_command in the sandbox: the governor's home is not visible inside", function () {
  this.timeout(60_000);
  let home: string;
  let h: Harness | undefined;
  const saved = process.env.INTENT_GOVERNOR_HOME;

  beforeEach(async function () {
    await sandboxOrSkip(this);
    home = await realpath(await mkdtemp(join(tmpdir(), 'ig-gov-home-')));
    await mkdir(join(home, 'keys'), { recursive: true });
    await mkdir(join(home, 'run'), { recursive: true });
    await writeFile(join(home, 'keys/signer.json'), JSON.stringify({ privateKey: '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIKEY\n-----END PRIVATE KEY-----\n' }));
    await writeFile(join(home, 'run/ws.endpoint'), JSON.stringify({ url: 'http://127.0.0.1:1', token: 'resident-token-value' }));
    process.env.INTENT_GOVERNOR_HOME = home;
    h = await createHarness({ files: { 'src/auth/a.ts': 'a\n', 'scripts/look.sh': `cat ${home}/keys/signer.json ${home}/run/ws.endpoint; ls -A ${home}; grep -r PRIVATE ${home}; exit 0\n` } });
    assert.ok((await h.call('select_active_intent', { intent_id: 'auth-refactor' })).ok);
  });

  afterEach(async () => {
    if (saved === undefined) delete process.env.INTENT_GOVERNOR_HOME;
    else process.env.INTENT_GOVERNOR_HOME = saved;
    await h?.dispose();
    h = undefined;
    await removeTree(home);
  });

  it('a committed script that reads the signing key and the resident token prints neither', async () => {
    (h as Harness).approver.script(...Array<boolean>(5).fill(true));
    const result = await (h as Harness).call('run_command', { command: 'sh scripts/look.sh' });
    const text = JSON.stringify(result);
    assert.doesNotMatch(text, /BEGIN PRIVATE KEY|MC4CAQAw|resident-token-value/);
    assert.match(text, /signer\.json: No such file or directory/);
  });
});

describe('the rewritten shell line: a confined command gets no terminal to type into', function () {
  this.timeout(60_000);
  let sandbox: AvailableSandbox;
  let root: string;

  beforeEach(async function () {
    sandbox = (await sandboxOrSkip(this)) as AvailableSandbox;
    root = await realpath(await mkdtemp(join(tmpdir(), 'ig-tty-')));
    await mkdir(join(root, 'src/auth'), { recursive: true });
  });
  afterEach(() => removeTree(root));

  it('run under a terminal (as an agent runs it), the command cannot open /dev/tty, so TIOCSTI has nothing to reach', async () => {
    const planned = await planConfinement({ workspaceRoot: root, ownedScope: ['src/auth/**'], denyNetwork: false, governorHome: join(root, '.home') }, 'ig-tty-tmp-');
    try {
      const probe = "import os\ntry:\n    os.open('/dev/tty', os.O_RDWR)\n    print('TTY-OPEN')\nexcept OSError as e:\n    print('TTY-REFUSED', e.errno)\n";
      await writeFile(join(root, 'src/auth/probe.py'), probe);
      const line = confinedCommandLine(confinedInvocation(sandbox, planned.confinement, 'python3 src/auth/probe.py', root, {}), planned.confinement.tempDir);
      // `script` gives the line a terminal of its own, as the agent's shell has.
      const out = execFileSync('script', ['-qec', line, '/dev/null'], { cwd: root, encoding: 'utf8', env: { ...process.env, PATH: process.env.PATH } });
      assert.match(out, /TTY-REFUSED/, out);
      // And the same line outside the sandbox does see the terminal: the probe can tell.
      const plain = execFileSync('script', ['-qec', 'python3 src/auth/probe.py', '/dev/null'], { cwd: root, encoding: 'utf8' });
      assert.match(plain, /TTY-OPEN/, plain);
    } finally {
      removePlaceholders(planned.placeholders);
      await releaseConfinement(planned);
    }
  });
});

describe('the protected names kept read-only under each writable folder', () => {
  it('cover every built-in protected folder and file, nested ones by their own path', () => {
    const rels = PROTECTED_ENTRIES.map((e) => e.rel);
    for (const rel of ['.git', '.orchestration', '.claude', '.github/hooks', '.github/copilot', '.mcp.json', 'opencode.json', '.vscode', '.gemini', '.cursor', '.opencode', '.codex', '.clinerules']) assert.ok(rels.includes(rel), rel);
    assert.ok(!rels.includes('.orchestration/signers'), 'inside .orchestration already');
  });
});

describe('run_command in the sandbox: processes a command leaves behind end with it', function () {
  this.timeout(60_000);
  let h: Harness | undefined;

  beforeEach(async function () {
    await sandboxOrSkip(this);
    h = await createHarness({ files: { 'src/auth/a.ts': 'a\n' } });
    assert.ok((await h.call('select_active_intent', { intent_id: 'auth-refactor' })).ok);
  });
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });

  for (const [how, command] of [
    ['&', "(sleep 1; echo late > src/auth/late.txt) & echo started"],
    ['nohup', "nohup sh -c 'sleep 1; echo late > src/auth/late.txt' >/dev/null 2>&1 & echo started"],
    ['setsid', "setsid sh -c 'sleep 1; echo late > src/auth/late.txt' >/dev/null 2>&1 & echo started"],
  ] as const) {
    it(`${how}: nothing it started writes after the answer (the sandbox's pid namespace ends with the command)`, async () => {
      (h as Harness).approver.script(...Array<boolean>(5).fill(true));
      const result = await (h as Harness).call('run_command', { command });
      assert.match(JSON.stringify(result), /started/, JSON.stringify(result));
      await new Promise((resolve) => setTimeout(resolve, 1800));
      assert.equal(existsSync(join((h as Harness).root, 'src/auth/late.txt')), false, 'a left-behind process wrote after the command was recorded');
    });
  }
});
