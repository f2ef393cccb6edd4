import { strict as assert } from 'node:assert';
import { Minimatch, type MinimatchOptions } from 'minimatch';
import { compileScopeGlob, pathSegments } from '../../../../src/core/policy/scopeGlob';
import { matchScope } from '../../../../src/core/policy/scope';

// The options scope.ts matches owned_scope with.
const OPTIONS: MinimatchOptions = { nonegate: true, nobrace: true, noext: true, nocomment: true, dot: false, platform: 'linux' };

/** A small deterministic generator, so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)];

// Pieces of segments: literals in both cases, non-ASCII (folding, astral), wildcards, classes of every kind minimatch reads.
const GLOB_PIECES = ['a', 'b', 'A', 'k', '.', '-', 'é', 'É', '\u212a', '😀', '*', '**', '?', '[ab]', '[!a]', '[^b]', '[.]', '[a-c]', '[c-a]', '[]a]', '[a-]', '[[:alpha:]]', '[[:digit:]x]', '[a[:graph:]]', '[', ']', '[😀]', '[!.]', 'ts'];
const PATH_PIECES = ['a', 'b', 'A', 'B', 'k', 'K', '\u212a', '.', '-', 'é', 'É', '😀', '1', ']', '[', 'ts', 'ab', 'ba'];

function globOf(next: () => number): string {
  const segments: string[] = [];
  const count = 1 + Math.floor(next() * 5);
  for (let s = 0; s < count; s++) {
    if (next() < 0.25) segments.push('**');
    else segments.push(Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(next, GLOB_PIECES)).join(''));
  }
  return segments.join('/');
}

function pathOf(next: () => number): string {
  const count = 1 + Math.floor(next() * 6);
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(next, PATH_PIECES)).join('')).join('/');
}

describe('compileScopeGlob (owned_scope matching without backtracking)', () => {
  it('answers as minimatch does on many generated globs and paths, case-sensitive and not', () => {
    let compared = 0;
    for (let seed = 1; seed <= 600; seed++) {
      const next = random(seed);
      const glob = globOf(next);
      for (const nocase of [false, true]) {
        let reference: Minimatch;
        try {
          reference = new Minimatch(glob, { ...OPTIONS, nocase });
        } catch {
          continue;
        }
        const ours = compileScopeGlob(glob, { ...OPTIONS, nocase });
        for (let p = 0; p < 40; p++) {
          const path = pathOf(next);
          if (!pathSegments(path)) continue;
          assert.equal(ours.matches(path), reference.match(path), `seed ${seed}: '${glob}' on '${path}' (nocase ${nocase})`);
          compared++;
        }
        // Paths built to fit the glob, so matches are compared as well as misses (and `**` over a hidden folder).
        for (const over of ['a/b', '.h/b', 'a/.h']) {
          const fitted = glob.replace(/\*\*/g, over).replace(/\*/g, 'ab').replace(/\?/g, 'a');
          if (pathSegments(fitted)) assert.equal(ours.matches(fitted), reference.match(fitted), `seed ${seed}: '${glob}' on '${fitted}'`);
        }
      }
    }
    assert.ok(compared > 10_000, `only ${compared} comparisons`);
  });

  it('answers as minimatch does on the globs scopes are usually written with', () => {
    const globs = ['src/**', 'src/*.ts', 'src/**/*.test.ts', '**/*.md', 'src/auth/**', 'docs/**/api/**', '**', 'a/**/b/**/c', 'a/**/b/**/.env', 'src/.env', '[.]x/**', 'src/?.ts', '*.*', '.*', 'src/**/[[:upper:]]*', '**/a/**', 'a/**/b/**'];
    const paths = ['src', 'src/a.ts', 'src/.env', 'src/.a/b.ts', 'src/x/y/z.test.ts', 'a/b/c', 'a/x/b/y/c', 'a/x/b/y/.env', '.x/y', 'README.md', 'docs/x/api/y/z', 'src/Q.ts', 'src/sub/Upper.ts', '.gitignore', '.x/a/b', 'a/.h/b/c', 'a/b/.h/c'];
    for (const glob of globs) {
      for (const nocase of [false, true]) {
        const reference = new Minimatch(glob, { ...OPTIONS, nocase });
        const ours = compileScopeGlob(glob, { ...OPTIONS, nocase });
        for (const path of paths) assert.equal(ours.matches(path), reference.match(path), `'${glob}' on '${path}' (nocase ${nocase})`);
      }
    }
  });

  it('matches a hostile glob the loader accepts against a long path within a generous bound', () => {
    // 89 characters: minimatch's regex for the middle segment backtracks for minutes on a long segment.
    const hostile = `src/${'*a'.repeat(40)}*b/**`;
    const manyGlobstars = `${'**/a/'.repeat(50)}**/b`; // minimatch retries every way the sections fit
    const segment = 'a'.repeat(255);
    const paths = [`src/${segment}/x.ts`, `src/${'a'.repeat(200)}/x.ts`, Array.from({ length: 16 }, () => segment).join('/'), 'a/'.repeat(2000) + 'c'];
    for (const glob of [hostile, manyGlobstars]) {
      for (const caseInsensitive of [false, true]) {
        for (const path of paths) {
          const started = performance.now();
          assert.equal(matchScope(path, [glob], { caseInsensitive }), undefined);
          const elapsed = performance.now() - started;
          assert.ok(elapsed < 1_000, `'${glob.slice(0, 20)}…' on a ${path.length}-character path took ${elapsed.toFixed(0)} ms`);
        }
      }
    }
  });

  it('covers no path the filesystem could not hold, whatever the glob', () => {
    assert.equal(matchScope(`src/${'a'.repeat(256)}`, ['src/**'], { caseInsensitive: false }), undefined);
    assert.equal(matchScope(`src/${'é'.repeat(128)}`, ['src/**'], { caseInsensitive: false }), undefined, '256 bytes in UTF-8');
    assert.equal(matchScope(`src/${'a'.repeat(255)}`, ['src/**'], { caseInsensitive: false }), 'src/**');
    assert.equal(matchScope(`src/${'a/'.repeat(2100)}x`, ['src/**'], { caseInsensitive: false }), undefined);
    for (const odd of ['src//a.ts', 'src/./a.ts', 'src/../src/a.ts', 'src/a.ts/', '/src/a.ts']) {
      assert.equal(matchScope(odd, ['src/**', '**'], { caseInsensitive: false }), undefined, odd);
    }
  });
});
