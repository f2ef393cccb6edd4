import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledScript } from '../../support/bundledScript';
import { runNode } from '../../support/childProcesses';
import { SAMPLE_INTENTS } from '../../support/governorHarness';
import { removeTree } from '../../support/removeTree';

/**
 * `npm link` puts `<prefix>/bin/governor` on PATH, a link to the package's dist/cli.js. Run through that link,
 * `hooks install --agent claude` must write commands that name files that exist: Claude Code's server entry and the
 * launcher's target. Before, the server entry named `<prefix>/bin/cli.js`, so every tool call in the project was
 * refused and `doctor`'s advice (install again) answered "unchanged".
 */
describe('governor hooks install run through an npm-link style symlink', function () {
  this.timeout(60_000);
  let base: string;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'ig-linked-'));
  });
  afterEach(() => removeTree(base));

  it("writes Claude Code's server entry and the launcher with paths that exist (the link's target, not its folder), and doctor then says enforced", async () => {
    const src = join(__dirname, '..', '..', '..', 'src', 'cli');
    const cli = bundledScript(join(src, 'main.ts'), 'cli.js');
    // dist/ as npm link exposes it: the hook bundle and the headless governor beside the CLI.
    bundledScript(join(src, 'hookMain.ts'), 'hook.js');
    bundledScript(join(src, 'headlessDecider.ts'), 'hook-headless.js');
    const bin = join(base, 'prefix', 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(cli, join(bin, 'governor'));
    const ws = join(base, 'ws');
    mkdirSync(join(ws, '.orchestration'), { recursive: true });
    writeFileSync(join(ws, '.orchestration', 'active_intents.yaml'), SAMPLE_INTENTS);
    const home = join(base, 'home');
    mkdirSync(home);
    const env = { ...process.env, HOME: home, INTENT_GOVERNOR_HOME: join(home, '.intent-governor'), INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), PATH: `${bin}:${process.env.PATH ?? ''}` };
    const run = await runNode(join(bin, 'governor'), ['hooks', 'install', '--agent', 'claude', '--workspace', ws], env);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const config = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as { projects?: Record<string, { mcpServers?: Record<string, { command: string; args: string[] }> }> };
    const servers = Object.values(config.projects ?? {}).flatMap((project) => Object.values(project.mcpServers ?? {}));
    assert.ok(servers.length > 0, JSON.stringify(config));
    const scripts = servers.flatMap((server) => server.args.filter((arg) => arg.endsWith('.js')));
    assert.ok(scripts.length > 0, JSON.stringify(servers));
    for (const script of scripts) assert.ok(existsSync(script), `the server entry names ${script}, which does not exist`);
    assert.ok(!scripts.some((script) => script.startsWith(bin)), `the server entry names the link's folder: ${scripts.join(', ')}`);
    const launcher = readFileSync(join(home, '.intent-governor', 'bin', 'governor-hook'), 'utf8');
    // The copy it was written for (its fallbacks, installed extensions and the CLI on PATH, are looked for at run time).
    const targets = [...launcher.matchAll(/^hook='([^']+)'$/gm)].map((m) => m[1]);
    assert.equal(targets.length, 1, launcher);
    for (const target of targets) assert.ok(existsSync(target), `the launcher names ${target}, which does not exist`);
    // What the person runs next: the canary goes through the installed door and is refused there.
    const doctor = await runNode(join(bin, 'governor'), ['doctor', '--workspace', ws], env);
    assert.equal(doctor.code, 0, `${doctor.stdout}\n${doctor.stderr}`);
    assert.match(doctor.stdout, /^Claude Code: enforced$/m, doctor.stdout);
    assert.match(doctor.stdout, /^1 of 1 installed door enforce\.$/m, doctor.stdout);
  });
});
