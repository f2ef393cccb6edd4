import { strict as assert } from 'node:assert';
import { matchScope, scopeViolationError } from '../../../../src/core/policy/scope';

/** Matches more distinct globs than the matcher cache holds, so the next match compiles its globs afresh. */
function forgetCompiledGlobs(): void {
  for (let i = 0; i < 1024; i++) matchScope('x', [`forget${i}/**`], { caseInsensitive: false });
}

/** Segments of 200 characters and one of `last`, joined: a path of 20 * 201 + last characters. */
const longPath = (last: number) => [...Array<string>(20).fill('x'.repeat(200)), 'y'.repeat(last)].join('/');

describe('matchScope', () => {
  const cases: Array<{ name: string; rel: string; globs: string[]; caseInsensitive?: boolean; expect: string | undefined }> = [
    { name: 'a file under the scope folder is in scope', rel: 'src/auth/login.ts', globs: ['src/auth/**'], expect: 'src/auth/**' },
    { name: 'a sibling folder sharing a prefix is out of scope', rel: 'src/authx/a.ts', globs: ['src/auth/**'], expect: undefined },
    { name: 'the scope folder itself is not a file in scope', rel: 'src/auth', globs: ['src/auth/**'], expect: undefined },
    { name: 'other case is out of scope on a case-sensitive filesystem', rel: 'SRC/a.ts', globs: ['src/**'], expect: undefined },
    { name: 'other case is in scope on a case-insensitive filesystem', rel: 'SRC/a.ts', globs: ['src/**'], caseInsensitive: true, expect: 'src/**' },
    { name: 'a dotfile is not covered by **', rel: 'src/.env', globs: ['src/**'], expect: undefined },
    { name: 'a file in a hidden folder is not covered by **', rel: 'src/.secrets/key.pem', globs: ['src/**'], expect: undefined },
    { name: 'a dotfile named explicitly is in scope', rel: 'src/.env', globs: ['src/**', 'src/.env'], expect: 'src/.env' },
    { name: 'the first matching glob is reported', rel: 'src/a.ts', globs: ['docs/**', 'src/*.ts', 'src/**'], expect: 'src/*.ts' },
    { name: 'a single star does not cross folders', rel: 'src/deep/a.ts', globs: ['src/*.ts'], expect: undefined },
    { name: 'braces are literal, not alternatives', rel: 'src/a.ts', globs: ['src/{a,b}.ts'], expect: undefined },
    { name: 'a leading ! is literal, not a negation that matches everything else', rel: 'src/a.ts', globs: ['!docs/**'], expect: undefined },
    { name: 'a leading ! is literal: it covers a folder named !docs', rel: '!docs/a.md', globs: ['!docs/**'], expect: '!docs/**' },
    { name: 'braces are literal: they cover a file named with them', rel: 'src/{a,b}.ts', globs: ['src/{a,b}.ts'], expect: 'src/{a,b}.ts' },
    { name: 'extglob characters are literal: they cover a file named with them', rel: 'src/+(a|b).ts', globs: ['src/+(a|b).ts'], expect: 'src/+(a|b).ts' },
    { name: 'a star before parentheses is a plain star: it covers a file ending in (a)', rel: 'src/b(a)', globs: ['src/*(a)'], expect: 'src/*(a)' },
    { name: 'a star before parentheses is a plain star: it covers no dotfile', rel: 'src/.key(a)', globs: ['src/*(a)'], expect: undefined },
    { name: 'extglobs are literal', rel: 'src/a.ts', globs: ['src/+(a|b).ts'], expect: undefined },
    { name: 'a leading # is a literal character, not a comment', rel: '#notes.md', globs: ['#notes.md'], expect: '#notes.md' },
    { name: 'an NFD path matches an NFC glob', rel: 'docs/caf\u0065\u0301.md', globs: ['docs/caf\u00e9.md'], expect: 'docs/caf\u00e9.md' },
    { name: 'an empty scope covers nothing', rel: 'src/a.ts', globs: [], expect: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      forgetCompiledGlobs();
      assert.equal(matchScope(c.rel, c.globs, { caseInsensitive: c.caseInsensitive ?? false }), c.expect, 'compiled afresh');
      assert.equal(matchScope(c.rel, c.globs, { caseInsensitive: c.caseInsensitive ?? false }), c.expect, 'compiled before');
    });
  }

  it('covers a path of exactly 4096 characters, the filesystem’s limit, and no path over it', () => {
    assert.equal(longPath(76).length, 4096);
    assert.equal(matchScope(longPath(76), ['**'], { caseInsensitive: false }), '**');
    assert.equal(matchScope(longPath(77), ['**'], { caseInsensitive: false }), undefined);
  });

  it('covers no path too long as written, even when its NFC form would fit', () => {
    const decomposed = Array<string>(18).fill('a\u0308\u0304'.repeat(80)).join('/'); // each ǟ written as a, ¨ and ¯
    assert.ok(decomposed.length > 4096 && Buffer.byteLength(decomposed.normalize('NFC')) < 4096);
    assert.equal(matchScope(decomposed.normalize('NFC'), ['**'], { caseInsensitive: false }), '**');
    assert.equal(matchScope(decomposed, ['**'], { caseInsensitive: false }), undefined);
  });

  it('keeps case-sensitive and case-insensitive answers apart for the same glob', () => {
    assert.equal(matchScope('SRC/a.ts', ['src/**'], { caseInsensitive: true }), 'src/**');
    assert.equal(matchScope('SRC/a.ts', ['src/**'], { caseInsensitive: false }), undefined);
  });

  it('still matches correctly after many distinct globs have cycled through the cache', () => {
    for (let i = 0; i < 2000; i++) matchScope('src/a.ts', [`gen${i}/**`], { caseInsensitive: false });
    assert.equal(matchScope('src/a.ts', ['gen5/**', 'src/**'], { caseInsensitive: false }), 'src/**');
    assert.equal(matchScope('gen5/x.ts', ['gen5/**'], { caseInsensitive: false }), 'gen5/**');
  });
});

describe('scopeViolationError', () => {
  it('lists the owned scope and says how to get more', () => {
    const error = scopeViolationError('src/authx/a.ts', 'INT-7', ['src/auth/**', 'test/auth/**']);
    assert.equal(error.code, 'SCOPE_VIOLATION');
    assert.deepEqual(error.meta, { path: 'src/authx/a.ts', intent_id: 'INT-7', owned_scope: ['src/auth/**', 'test/auth/**'] });
    assert.match(error.message, /src\/authx\/a\.ts/);
    assert.match(error.message, /src\/auth\/\*\*, test\/auth\/\*\*/);
    assert.match(error.message, /request_scope_expansion/);
    assert.match(error.message, /another intent/);
  });

  it('says the intent owns nothing when its scope is empty', () => {
    const error = scopeViolationError('src/a.ts', 'INT-8', []);
    assert.match(error.message, /outside the owned scope of intent INT-8 \(\(nothing\)\)\./);
    assert.deepEqual(error.meta, { path: 'src/a.ts', intent_id: 'INT-8', owned_scope: [] });
  });
});
