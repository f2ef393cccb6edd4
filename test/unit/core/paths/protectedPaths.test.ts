import { strict as assert } from 'node:assert';
import { Minimatch } from 'minimatch';
import { PROTECTED_PATTERNS, protectedPathError, protectedPatternFor } from '../../../../src/core/paths/protectedPaths';

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
