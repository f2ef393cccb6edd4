import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(__dirname, '..', '..', '..', 'dist');

/**
 * dist/hook.js starts once per agent tool call wherever no resident governor answers, so Node compiles all of it
 * each time: the shell parser (3 MB of GopherJS) and TypeScript (9 MB) load from dist/vendor/ on first use instead
 * (inlined, the parser alone added ~45 ms to every call).
 */
describe('the hook bundle an agent starts per tool call', () => {
  it('stays small: the shell parser and TypeScript are required from dist/vendor, not inlined', () => {
    const hook = join(dist, 'hook.js');
    assert.ok(existsSync(hook), 'run `npm run build` first (`npm test` builds dist/ before the unit tests)');
    const { size } = statSync(hook);
    assert.ok(size < 600 * 1024, `dist/hook.js is ${(size / 1024).toFixed(0)} KB`);
    const text = readFileSync(hook, 'utf8');
    assert.ok(!text.includes('$packages["github.com/gopherjs'), 'the shell parser is inlined');
    assert.match(text, /require\("\.\/vendor\/mvdan-sh\.js"\)/);
    assert.ok(existsSync(join(dist, 'vendor', 'mvdan-sh.js')));
  });

  it('nor is the shell parser inlined in the extension or the CLI (they would compile it at every start)', () => {
    for (const name of ['extension.js', 'cli.js', 'hook-headless.js']) {
      const text = readFileSync(join(dist, name), 'utf8');
      assert.ok(!text.includes('$packages["github.com/gopherjs'), `the shell parser is inlined in dist/${name}`);
    }
  });
});
