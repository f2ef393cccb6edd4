import { strict as assert } from 'node:assert';
import { commandHash } from '../../../../src/core/userHooks/hookApprovals';
import { matcherMatches } from '../../../../src/core/userHooks/hookMatcher';
import { LEGACY_MIGRATION_NOTE, parseLegacyHooksYaml } from '../../../../src/core/userHooks/legacyHooksYaml';

describe('.orchestration/hooks.yaml read into the same hooks as the JSON format', () => {
  it('maps pre/post to PreToolUse/PostToolUse, keeps timeout_ms, names and the command hash, with a migration hint', () => {
    const parsed = parseLegacyHooksYaml(
      ['hooks:', '  - name: gate', '    matcher: write_file|edit_file', '    command: ./gate.sh', '    timeout_ms: 2000', '  - event: post', '    command: echo done', ''].join('\n'),
    );
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.notes, [LEGACY_MIGRATION_NOTE]);
    assert.equal(LEGACY_MIGRATION_NOTE, ".orchestration/hooks.yaml still works; move its hooks to .orchestration/hooks.json (Claude Code's hooks format); `governor hooks list` shows them");
    assert.deepEqual(parsed.hooks[0], {
      id: '.orchestration/hooks.yaml#hooks[0]',
      name: 'gate',
      event: 'PreToolUse',
      matcher: 'write_file|edit_file',
      action: { type: 'command', command: './gate.sh' },
      timeoutMs: 2000,
      async: false,
      asyncRewake: false,
      once: false,
      onFailure: 'block',
      source: { layer: 'legacy', file: '.orchestration/hooks.yaml' },
      approvalHash: commandHash('./gate.sh'),
      identity: parsed.hooks[0].identity,
    });
    assert.match(parsed.hooks[0].identity, /^sha256:[0-9a-f]{64}$/);
    const post = parsed.hooks[1];
    assert.deepEqual([post.name, post.event, post.matcher, post.timeoutMs, post.onFailure], ['hook-2', 'PostToolUse', '*', 5000, 'continue']);
  });

  it('a regular expression still means the whole tool name, as it did', () => {
    const parsed = parseLegacyHooksYaml('hooks:\n  - matcher: "write.*"\n    command: x\n');
    assert.ok(parsed.ok);
    const [spec] = parsed.hooks;
    assert.equal(matcherMatches(spec.matcher, ['write_file']), true);
    assert.equal(matcherMatches(spec.matcher, ['rewrite_file']), false);
  });

  it('an empty file or an empty list has no hooks and no hint', () => {
    assert.deepEqual(parseLegacyHooksYaml(''), { ok: true, hooks: [], notes: [] });
    assert.deepEqual(parseLegacyHooksYaml('hooks: []\n'), { ok: true, hooks: [], notes: [] });
  });

  const broken: [what: string, text: string, message: string][] = [
    ['not YAML', 'hooks: [', /^\.orchestration\/hooks\.yaml: the file is not valid YAML \(/.source],
    ['no hooks list', 'other: 1\n', `^\\.orchestration/hooks\\.yaml: the file needs a top-level 'hooks:' list$`],
    ['an entry that is not a mapping', 'hooks:\n  - x\n', `^\\.orchestration/hooks\\.yaml: hooks\\[0\\] must be a mapping$`],
    ['no command', 'hooks:\n  - name: a\n', `^\\.orchestration/hooks\\.yaml: hooks\\[0\\] needs a 'command'$`],
    ['an unknown event', 'hooks:\n  - command: x\n    event: PreToolUse\n', `^\\.orchestration/hooks\\.yaml: hooks\\[0\\]: event must be 'pre' or 'post'$`],
    ['an empty matcher', 'hooks:\n  - command: x\n    matcher: ""\n', `^\\.orchestration/hooks\\.yaml: hooks\\[0\\]: matcher must be a tool name or a regular expression$`],
    ['an invalid regex', 'hooks:\n  - command: x\n    matcher: "("\n', `^\\.orchestration/hooks\\.yaml: hooks\\[0\\]: matcher '\\(' is not a valid regular expression$`],
    ['a timeout out of range', 'hooks:\n  - command: x\n    timeout_ms: 10\n', `^\\.orchestration/hooks\\.yaml: hooks\\[0\\]: timeout_ms must be an integer from 100 to 60000$`],
  ];
  for (const [what, text, message] of broken) {
    it(`a broken file is an error: ${what}`, () => {
      const parsed = parseLegacyHooksYaml(text);
      assert.ok(!parsed.ok);
      assert.match(parsed.message, new RegExp(message));
    });
  }
});
