import { strict as assert } from 'node:assert';
import { commandMatchesPattern, parseCommandPattern } from '../../../../src/core/userHooks/hookCommandPattern';

describe('hookCommandPattern: the command half of an if rule', () => {
  it('reads the three forms Claude Code has: prefix:*, a glob, an exact command', () => {
    assert.deepEqual(parseCommandPattern('*'), { kind: 'all' });
    assert.deepEqual(parseCommandPattern('git push:*'), { kind: 'prefix', prefix: 'git push' });
    assert.deepEqual(parseCommandPattern('npm test'), { kind: 'exact', text: 'npm test' });
    const glob = parseCommandPattern('git * main');
    assert.equal(glob.kind, 'glob');
    assert.equal(glob.kind === 'glob' && glob.regex.source, '^git .* main$');
  });

  it('a trailing " *" matches the bare command too; "\\*" is a literal star', () => {
    assert.equal(commandMatchesPattern('npm run', parseCommandPattern('npm run *')), true);
    assert.equal(commandMatchesPattern('npm runner', parseCommandPattern('npm run *')), false);
    assert.equal(commandMatchesPattern('echo *', parseCommandPattern('echo \\*')), true);
    assert.equal(commandMatchesPattern('echo x', parseCommandPattern('echo \\*')), false);
  });

  it('looks through every command of a line, wrappers and sh -c, but not into quoted arguments', () => {
    const push = parseCommandPattern('git push:*');
    const table: [command: string, expected: boolean][] = [
      ['git push', true],
      ['cd repo && git push', true],
      ['git status || git push --force', true],
      ['(git push) &', true],
      ['nohup nice -n 5 git push', true],
      ['xargs -n1 git push < remotes', true],
      ['sh -lc "cd x; git push"', true],
      ['bash -c "bash -c \'git push\'"', true],
      ['git commit -m "then git push"', false],
      ['grep -r "git push" .', false],
      ['bash scripts/release.sh', false],
    ];
    for (const [command, expected] of table) assert.equal(commandMatchesPattern(command, push), expected, command);
  });

  it('a word only known at run time, where the pattern names fixed words, matches (the hook runs)', () => {
    assert.equal(commandMatchesPattern('git "$SUB" origin', parseCommandPattern('git push:*')), true);
    assert.equal(commandMatchesPattern('git status "$FILE"', parseCommandPattern('git push:*')), false);
    assert.equal(commandMatchesPattern('bash -c "$SCRIPT"', parseCommandPattern('git push:*')), true);
    assert.equal(commandMatchesPattern('source ./env.sh', parseCommandPattern('git push:*')), true);
  });
});
