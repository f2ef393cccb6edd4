import { strict as assert } from 'node:assert';
import { Minimatch } from 'minimatch';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { managedProtectsPaths, PROTECTED_PATTERNS, protectedPathError, protectedPatternFor } from '../../../../src/core/paths/protectedPaths';

describe('protectedPatternFor', () => {
  const protectedPaths: Array<[string, string]> = [
    ['.orchestration/active_intents.yaml', 'the governor\'s own intents'],
    ['.orchestration', 'the governor folder itself'],
    ['.orchestration/agent_trace.jsonl', 'the trace'],
    ['.orchestration/signers/mallory.pub', 'the published signing keys'],
    ['.git/config', 'git config'],
    ['.git', 'the .git folder (or a submodule gitfile)'],
    ['.GIT/config', 'upper-case .git'],
    ['.Git/HEAD', 'mixed-case .git'],
    ['sub/.git/config', 'a nested repository'],
    ['vendor/lib/.git', 'a submodule gitfile'],
    ['.vscode/settings.json', 'editor settings'],
    ['.vscode/tasks.json', 'tasks that run on folder open'],
    ['packages/app/.vscode/launch.json', 'a nested .vscode'],
    ['.claude/settings.json', 'Claude Code settings'],
    ['.cursor/rules/x.mdc', 'Cursor rules'],
    ['.github/hooks/x.json', 'agent hooks'],
    ['.github/hooks', 'the hooks folder itself'],
    ['.roo/rules/a.md', 'Roo rules'],
    ['.clinerules', 'Cline rules as a file'],
    ['.clinerules/a.md', 'Cline rules as a folder'],
    ['.mcp.json', 'MCP server config'],
    ['.cursorrules', 'Cursor rules file'],
    ['.roomodes', 'Roo modes'],
    ['.agents/hooks.json', "Antigravity CLI's project hooks"],
    ['.agent/hooks.json', "Antigravity CLI's project hooks, second spelling"],
    ['_agents/hooks.json', "Antigravity CLI's project hooks, third spelling"],
    ['pkg/_agent/plugins/x/hooks.json', 'a nested Antigravity CLI customization root'],
    ['.factory/hooks.json', "Droid's project hooks"],
    ['.kilo/plugin/x.js', 'a Kilo Code plugin'],
    ['.kilocode/rules/a.md', "Kilo Code's rules"],
    ['kilo.json', "Kilo Code's project config, which names plugins"],
    ['.augment/settings.json', "Auggie's project hooks"],
    ['.g\u200cit/config', 'a zero-width joiner HFS+ ignores'],
    ['.vſcode/settings.json', 'a long s that case-folds to s'],
    ['.git./config', 'a trailing dot NTFS trims'],
    ['GIT~1/config', 'the NTFS short name of .git'],
    ['\uff0egit/config', 'a fullwidth dot that NFKC turns into "."'],
    ['opencode.json', "OpenCode's project config"],
    ['opencode.jsonc', "OpenCode's project config, with comments"],
    ['kilo.jsonc', "Kilo Code's project config, with comments"],
    ['.g\u0131t/config', 'a dotless i that upper-cases to I (NFKC keeps it)'],
    ['.git../config', 'several trailing dots NTFS trims'],
    ['.git. ./HEAD', 'trailing dots and spaces mixed'],
    ['GIT~12/config', 'an 8.3 short name with a two-digit tail'],
  ];
  for (const [rel, why] of protectedPaths) {
    it(`protects ${JSON.stringify(rel)} (${why})`, () => {
      assert.ok(protectedPatternFor(rel), `${rel} should be protected`);
    });
  }

  const open: Array<[string, string]> = [
    ['.github/workflows/ci.yml', 'CI workflows are ordinary project files'],
    ['.github/CODEOWNERS', 'other .github files'],
    ['src/.gitignore', 'a file whose name merely starts with .git'],
    ['.gitignore', 'the root .gitignore'],
    ['src/git/config.ts', 'a folder named git without the dot'],
    ['docs/vscode.md', 'a name mentioning vscode'],
    ['src/a.ts', 'ordinary source'],
    ['.github/hooksx/a.json', 'a sibling of hooks'],
    ['src/agents/runner.ts', 'a folder named agents without the dot'],
    ['src/kilo.ts', 'a file named after Kilo that is not its config'],
    ['xgit~1/config', 'a name that only ends like the short name of .git'],
    ['git~1x/config', 'a name that only starts like the short name of .git'],
  ];
  for (const [rel, why] of open) {
    it(`leaves ${JSON.stringify(rel)} writable (${why})`, () => {
      assert.equal(protectedPatternFor(rel), undefined);
    });
  }

  it('names the pattern that matched, from the exported list', () => {
    const pattern = protectedPatternFor('.vscode/settings.json');
    assert.ok(pattern && PROTECTED_PATTERNS.includes(pattern));
    assert.match(pattern, /\.vscode/);
  });

  it('names the same pattern as matching every built-in glob in order would, on 20,000 random paths', () => {
    const matchers = PROTECTED_PATTERNS.map((pattern) => new Minimatch(pattern, { dot: true, nocase: true, nonegate: true, nobrace: true, noext: true, nocomment: true, platform: 'linux' }));
    const names = ['src', 'a.ts', '.git', '.GIT', 'git', '.github', 'hooks', 'copilot', 'workflows', '.orchestration', 'signers', 'x.pub', '.vscode', '.mcp.json', 'opencode.json', '.clinerules', '.roo', 'rules', '.codex', '.gemini', '.opencode', 'plugins', '.cursor', '.cursorrules', '.roomodes', 'opencode.jsonc', '.claude', 'settings.json', '.agents', '_agent', 'agents', '.factory', 'kilo.json', 'GIT~1', '.git.', '.mcp.json.bak'];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let hits = 0;
    for (let i = 0; i < 20_000; i++) {
      const rel = Array.from({ length: 1 + random(5) }, () => names[random(names.length)]).join('/');
      // What the glob list sees: the same folding (case, trailing dots, the 8.3 name of .git).
      const folded = rel.toLowerCase().split('/').map((s) => s.replace(/[. ]+$/u, '')).map((s) => (/^git~\d+$/u.test(s) ? '.git' : s)).join('/');
      const index = matchers.findIndex((matcher) => matcher.match(folded));
      const expected = index === -1 ? undefined : PROTECTED_PATTERNS[index];
      if (expected) hits++;
      assert.equal(protectedPatternFor(rel), expected, rel);
    }
    assert.ok(hits > 5_000 && hits < 19_000, `both kinds came up (${hits} protected)`);
  });

  it('protects a protected name below a "." or ".." segment too', () => {
    assert.equal(protectedPatternFor('../.git/config'), '**/.git/**');
    assert.equal(protectedPatternFor('./.vscode'), '**/.vscode');
  });

  it('builds a PROTECTED_PATH error that says a human edits the file', () => {
    const error = protectedPathError('.git/config', '**/.git/**');
    assert.equal(error.code, 'PROTECTED_PATH');
    assert.deepEqual(error.meta, { path: '.git/config', pattern: '**/.git/**' });
    assert.match(error.message, /\.git\/config/);
    assert.match(error.message, /whatever the intent's scope says/);
    assert.match(error.message, /a human edits it/);
  });
});

describe('protected signers', () => {
  it('names the signers folder when refusing a key an agent would publish, wherever it is spelled', () => {
    for (const rel of ['.orchestration/signers/mallory.pub', '.orchestration/signers/revoked/alice.pub', '.Orchestration/Signers/x.pub', 'sub/.orchestration/signers']) {
      assert.equal(protectedPatternFor(rel), rel.endsWith('signers') ? '**/.orchestration/signers' : '**/.orchestration/signers/**', rel);
    }
    assert.equal(protectedPatternFor('.orchestration/agent_trace.jsonl'), '**/.orchestration/**');
  });
});

describe("the administrator's protected paths", () => {
  const saved = process.env.INTENT_GOVERNOR_MANAGED_FILE;
  let dir: string;
  let managed: string;
  // Each write is a different length, so the re-read on a changed stat sees every edit.
  const write = (value: unknown) => writeFile(managed, JSON.stringify(value));
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-protected-managed-'));
    managed = join(dir, 'managed.json');
    process.env.INTENT_GOVERNOR_MANAGED_FILE = managed;
  });
  after(async () => {
    if (saved === undefined) delete process.env.INTENT_GOVERNOR_MANAGED_FILE;
    else process.env.INTENT_GOVERNOR_MANAGED_FILE = saved;
    await rm(dir, { recursive: true, force: true });
  });

  it('adds nothing while there is no managed file', () => {
    assert.equal(protectedPatternFor('secrets/a.txt'), undefined);
    assert.equal(managedProtectsPaths(), false);
  });

  it('adds nothing, and says so, when the managed file lists no paths', async () => {
    await write({ requireSigning: false });
    assert.equal(protectedPatternFor('secrets/a.txt'), undefined);
    assert.equal(managedProtectsPaths(), false);
  });

  it("protects each glob as a .gitignore line: anchored with a '/' at its start or inside, else at any depth, a folder's contents too", async () => {
    await write({ protectedPaths: ['secrets/', '/infra/prod/**', 'docs/private', ' notes.md ', 'vault//', '//top/x'] });
    assert.equal(managedProtectsPaths(), true);
    const named = (glob: string) => `${glob}, from the administrator's managed file ${managed}`;
    const protectedBy: Array<[string, string]> = [
      ['secrets', 'secrets/'],
      ['secrets/a.txt', 'secrets/'],
      ['sub/deep/secrets/c', 'secrets/'],
      ['SECRETS/b.txt', 'secrets/'],
      ['infra/prod/main.tf', '/infra/prod/**'],
      ['docs/private', 'docs/private'],
      ['docs/private/plan.md', 'docs/private'],
      ['notes.md', ' notes.md '],
      ['a/notes.md', ' notes.md '],
      ['a/vault/key', 'vault//'],
      ['top/x', '//top/x'],
    ];
    for (const [rel, glob] of protectedBy) assert.equal(protectedPatternFor(rel), named(glob), rel);
    for (const rel of ['sub/infra/prod/x', 'a/docs/private', 'a/top/x', 'src/secrets.ts', 'docs/privateer', 'infra/staging/main.tf']) {
      assert.equal(protectedPatternFor(rel), undefined, rel);
    }
    assert.equal(protectedPatternFor('.git/config'), '**/.git/**', 'the built-in patterns come first');
  });

  it('protects every path while the managed file cannot be used, naming the file and the problem', async () => {
    await writeFile(managed, '{ not json at all');
    const pattern = protectedPatternFor('src/a.ts');
    assert.match(pattern ?? '', new RegExp(`^every path, while the administrator's managed file ${managed.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')} cannot be used: the file is not valid JSON`));
    assert.equal(managedProtectsPaths(), true);
  });
});
