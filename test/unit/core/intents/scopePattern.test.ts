import { strict as assert } from 'node:assert';
import { MAX_SCOPE_PATTERN_LENGTH, normalizeScopePattern, validateScopePattern } from '../../../../src/core/intents/scopePattern';

describe('scopePattern', () => {
  it('accepts ordinary workspace-relative globs', () => {
    for (const glob of ['src/**', 'src/**/*.test.ts', '*.md', 'src/[ab].ts', '.github/**', 'docs/über uns/**', './src/**', 'a'.repeat(MAX_SCOPE_PATTERN_LENGTH)]) {
      assert.equal(validateScopePattern(glob), undefined, glob);
    }
  });

  it('treats ./src/** as src/**', () => {
    assert.equal(normalizeScopePattern('./src/**'), 'src/**');
    assert.equal(normalizeScopePattern('././src/x.ts'), 'src/x.ts');
    assert.equal(normalizeScopePattern('src/./x'), 'src/./x');
  });

  // Each rejected kind, with a fragment of the advice the user gets on what to write instead.
  const rejected: Array<[string, string, RegExp]> = [
    ['empty', '', /empty; write a workspace-relative glob such as 'src\/\*\*'/],
    ['only ./', './', /empty/],
    ['too long', 'a'.repeat(MAX_SCOPE_PATTERN_LENGTH + 1), /longer than 256 characters; use a shorter glob/],
    ['absolute POSIX', '/etc/**', /absolute paths are not allowed; write the path relative to the workspace root/],
    ['Windows drive with backslash', 'C:\\src\\**', /absolute paths/],
    ['Windows drive with slash', 'C:/src/**', /absolute paths/],
    ['UNC share', '\\\\server\\share', /absolute paths/],
    ['parent segment', 'src/../secrets/**', /'\.\.' segments are not allowed/],
    ['leading parent segment', '../other/**', /'\.\.' segments/],
    ['negation', '!src/secret.ts', /negation \('!'\) is not supported; list only what the intent owns/],
    ['backslash', 'src\\app\\**', /use '\/' as the separator/],
    ['braces', 'src/{a,b}/**', /braces are not supported; list each pattern separately/],
    ['closing brace alone', 'src/a}', /braces/],
    ['extglob @(', 'src/@(a|b).ts', /extglobs .* list each alternative as its own pattern/],
    ['extglob !(', 'src/!(x).ts', /extglobs/],
    ['extglob +(', 'src/+(a).ts', /extglobs/],
    ['extglob ?(', 'src/?(a).ts', /extglobs/],
    ['extglob *(', 'src/*(a).ts', /extglobs/],
    ['NUL', 'src/\u0000x', /control character .*; remove it/],
    ['newline', 'src/\nx', /control character/],
    ['tab', 'src/\tx', /control character/],
    ['home directory', '~/project/**', /'~' is not expanded to a home directory/],
    ['comment', '#notes.md', /comment that matches nothing; to own a file named '#x', write '\[#\]x'/],
    ['dot segment', 'src/./x.ts', /'\.' segments are not allowed; remove them/],
    ['trailing slash', 'src/', /trailing '\/' matches no file; write 'dir\/\*\*'/],
    ['empty segment', 'src//x.ts', /empty segments \('\/\/'\)/],
    ['negation after ./', './!x', /negation/],
  ];
  for (const [kind, glob, advice] of rejected) {
    it(`rejects ${kind} and says what to write instead`, () => {
      const reason = validateScopePattern(glob);
      assert.ok(reason, `${JSON.stringify(glob)} should be rejected`);
      assert.match(reason, advice);
    });
  }
});
