import { strict as assert } from 'node:assert';
import { matcherMatches, matcherProblem } from '../../../../src/core/userHooks/hookMatcher';

describe("hookMatcher: Claude Code's matcher semantics, against the native and the governed tool name", () => {
  const table: [matcher: string | undefined, names: string[], expected: boolean][] = [
    // '*', '' and absent: every tool
    ['*', ['Bash'], true],
    ['', ['anything'], true],
    [undefined, ['write_file'], true],
    // only letters, digits, _ - , | and spaces: a list of exact names
    ['Bash', ['Bash', 'run_command'], true],
    ['Bash', ['BashOutput'], false],
    ['Bash', ['bash'], false],
    ['run_command', ['Bash', 'run_command'], true],
    ['Edit|Write', ['Write', 'write_file'], true],
    ['Edit|Write', ['MultiEdit', 'edit_file'], false],
    ['Edit|Write', ['TodoWrite'], false],
    ['Edit, Write', ['Write'], true],
    ['Edit , Write', ['Edit'], true],
    ['read-file', ['read-file'], true],
    ['mcp__memory__store', ['mcp__memory__store'], true],
    // a server prefix alone is an exact name that names no tool
    ['mcp__memory', ['mcp__memory__store'], false],
    // anything else: a JavaScript regular expression, unanchored as in Claude Code
    ['mcp__.*', ['mcp__memory__store'], true],
    ['mcp__memory__.*', ['mcp__github__issue'], false],
    ['^Bash$', ['Bash'], true],
    ['^Bash$', ['BashOutput'], false],
    ['Bash.*', ['BashOutput'], true],
    ['Notebook.*', ['NotebookEdit'], true],
    ['.*_file', ['Write', 'write_file'], true],
    ['Write$', ['TodoWrite'], true],
    // no name given (an event without a tool): only the match-all matchers hold
    ['Bash', [], false],
    ['*', [], true],
  ];
  for (const [matcher, names, expected] of table) {
    it(`${JSON.stringify(matcher)} ${expected ? 'matches' : 'does not match'} ${JSON.stringify(names)}`, () => {
      assert.equal(matcherMatches(matcher, names), expected);
    });
  }

  it('says what is wrong with a matcher that is not a valid regular expression, and what to write instead', () => {
    assert.equal(matcherProblem('Bash'), undefined);
    assert.equal(matcherProblem('mcp__.*'), undefined);
    assert.equal(matcherProblem(''), undefined);
    assert.match(matcherProblem('Write|Edit(*.ts)') ?? '', /^matcher 'Write\|Edit\(\*\.ts\)' is not a valid regular expression \(.+\); write tool names separated by \| \(Edit\|Write\) or a JavaScript regular expression \(mcp__github__\.\*\)$/);
    assert.match(matcherProblem('[') ?? '', /not a valid regular expression/);
  });

  it('an invalid matcher matches nothing rather than throwing', () => {
    assert.equal(matcherMatches('(', ['('] ), false);
  });
});
