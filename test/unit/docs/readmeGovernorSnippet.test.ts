import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from '../../support/removeTree';

const README = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

/** README's `~/.local/bin/governor` script, as a user pastes it. */
function snippet(): string {
  const match = /cat > ~\/\.local\/bin\/governor <<'SH'\n([\s\S]*?)\nSH\n/u.exec(README);
  assert.ok(match, "README.md has no `cat > ~/.local/bin/governor <<'SH'` block");
  return `${match[1]}\n`;
}

/** The PATH snippet in README finds the newest installed extension wherever an editor keeps it, and says when none is. */
describe("README's governor-on-PATH snippet", () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'ig-readme-path-'));
  });
  afterEach(() => removeTree(home));

  const install = (folder: string, version: string) => {
    const dist = join(home, folder, `intent-governor.intent-governor-${version}`, 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'cli.js'), `console.log('governor ${version} ' + process.argv.slice(2).join(' '));\n`);
  };
  const run = () => {
    const script = join(home, 'governor');
    writeFileSync(script, snippet());
    chmodSync(script, 0o755);
    return spawnSync(script, ['--help'], { encoding: 'utf8', env: { HOME: home, PATH: process.env.PATH } });
  };

  it("runs the newest version across VS Code's, its remote server's and code-server's folders (0.10 after 0.9)", () => {
    install('.vscode/extensions', '0.9.0');
    install('.vscode-server/extensions', '0.2.1');
    install('.local/share/code-server/extensions', '0.10.0');
    const out = run();
    assert.equal(out.stdout, 'governor 0.10.0 --help\n', out.stderr);
  });

  it('with code-server only, runs its copy; with none, says so and exits 127', async () => {
    install('.local/share/code-server/extensions', '0.1.0');
    assert.equal(run().stdout, 'governor 0.1.0 --help\n');
    await removeTree(join(home, '.local'));
    const none = run();
    assert.equal(none.status, 127);
    assert.match(none.stderr, /no Intent Governor extension installed/);
  });
});
