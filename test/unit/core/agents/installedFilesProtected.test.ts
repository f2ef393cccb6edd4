import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { agentHookCommand } from '../../../../src/core/agents/common/hookCommand';
import type { HookFileChange } from '../../../../src/core/agents/common/hookFileEdit';
import { AGENTS } from '../../../../src/core/agents/registry';
import { canonicalizePath } from '../../../../src/core/paths/canonicalPath';
import { protectedPatternFor } from '../../../../src/core/paths/protectedPaths';
import { removeTree } from '../../../support/removeTree';

/**
 * What each registered agent's installer really writes, found by running it into an empty workspace, with a home
 * and a PATH of the test's own (no agent binary is found, so nothing outside the test's folders is touched).
 */
interface Installed {
  root: string;
  home: string;
  changes: HookFileChange[];
  /** Workspace-relative, POSIX: every file the install left in the workspace. */
  inWorkspace: string[];
}

async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => !entry.isDirectory()).map((entry) => join(entry.parentPath, entry.name));
}

async function install(agent: (typeof AGENTS)[number], base: string): Promise<Installed> {
  const root = join(base, 'ws');
  const home = join(base, 'home');
  const bin = join(base, 'bin');
  await Promise.all([mkdir(root), mkdir(home), mkdir(bin), mkdir(join(base, 'no-binaries'))]);
  // Claude Code's resident server names the CLI beside the hook bundle; the install refuses without it.
  const cliPath = join(bin, 'hook.js');
  await Promise.all([writeFile(cliPath, ''), writeFile(join(bin, 'cli.js'), '')]);
  const changes = await agent.install(root, 'install', cliPath, {
    command: agentHookCommand(agent.dialect, cliPath, 'linux'),
    env: { HOME: home, PATH: join(base, 'no-binaries') },
    // A hook file that cannot be read may declare anything: every agent then writes every hook file it has.
    declaredHooks: () => ({ hooks: [], unreadable: true }),
  });
  const inWorkspace = (await filesBelow(root)).map((file) => relative(root, file).split(sep).join('/'));
  return { root, home, changes, inWorkspace };
}

/** The ways an agent can name `rel` in a tool call: each must come back to a protected path, or be refused. */
function spellings(root: string, rel: string): string[] {
  const segments = rel.split('/');
  const detours = segments.map((_, at) => [...segments.slice(0, at), 'elsewhere', '..', ...segments.slice(at)].join('/'));
  const trailingDot = segments.map((segment, at) => [...segments.slice(0, at), `${segment}.`, ...segments.slice(at + 1)].join('/'));
  return [
    rel,
    `./${rel}`,
    `${rel}/`,
    `${rel}/.`,
    segments.join('/./'),
    segments.join('//'),
    ...detours,
    `src/../${rel}`,
    rel.toUpperCase(),
    segments.map((segment, at) => (at % 2 === 0 ? segment.toUpperCase() : segment)).join('/'),
    ...trailingDot,
    segments.join('\\'),
    `.\\${segments.join('\\')}`,
    join(root, rel),
    `${root}/./${rel}`,
    `${root}/elsewhere/../${rel}`,
  ];
}

/** A path that would let an agent's write through: it canonicalises, and what it lands on is not protected. */
async function writableSpellings(root: string, rel: string): Promise<string[]> {
  const open: string[] = [];
  for (const spelling of spellings(root, rel)) {
    for (const caseInsensitive of [false, true]) {
      const target = await canonicalizePath(root, spelling, 'write', { caseInsensitive });
      if (target.ok && protectedPatternFor(target.value.rel) === undefined) open.push(`${spelling} (caseInsensitive: ${caseInsensitive}) → ${target.value.rel}`);
    }
  }
  return open;
}

/** Names below a folder an installer writes into, for the random paths (a seeded generator: the same paths every run). */
const CHILD_NAMES = ['hooks.json', 'config.toml', 'settings.json', 'settings.local.json', 'x.js', 'plugins', 'sub', 'a.ts', '.git', 'README.md', 'hooks', 'intent-governor.json'];

function randomChildren(folder: string, count: number): string[] {
  let seed = 45;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  return Array.from({ length: count }, () => [folder, ...Array.from({ length: 1 + random(3) }, () => CHILD_NAMES[random(CHILD_NAMES.length)])].join('/'));
}

describe('every file an agent installer writes is protected from agents, derived from the registry', () => {
  let base: string | undefined;
  afterEach(async () => {
    if (base) await removeTree(base);
    base = undefined;
  });

  for (const agent of AGENTS) {
    it(`${agent.label}: no agent can write the hook and config files its install leaves in the workspace, however the path is spelled`, async () => {
      base = await realpath(await mkdtemp(join(tmpdir(), `ig-installed-${agent.id}-`)));
      const { root, changes, inWorkspace } = await install(agent, base);
      assert.deepEqual(changes.filter((change) => change.action === 'failed'), [], 'the install itself worked');
      assert.ok(inWorkspace.length > 0, 'the install wrote something into the workspace');
      const hookFiles = agent.hookFiles.replace(/\/$/u, '');
      assert.ok(inWorkspace.some((rel) => rel === hookFiles || rel.startsWith(`${hookFiles}/`)), `${agent.hookFiles} is where the install wrote`);
      for (const rel of inWorkspace) {
        assert.ok(protectedPatternFor(rel), `${rel}, written by ${agent.label}'s install, is protected`);
        assert.deepEqual(await writableSpellings(root, rel), [], `no spelling of ${rel} lets an agent write it`);
      }
    });

    it(`${agent.label}: every path in the folders its install writes into is protected, on random paths and spellings`, async () => {
      base = await realpath(await mkdtemp(join(tmpdir(), `ig-installed-${agent.id}-`)));
      const { root, inWorkspace } = await install(agent, base);
      const folders = [...new Set(inWorkspace.map((rel) => dirname(rel)).filter((folder) => folder !== '.'))];
      assert.ok(folders.length > 0, 'the install wrote into a folder of its agent');
      for (const folder of folders) {
        assert.ok(protectedPatternFor(folder), `${folder} itself is protected`);
        for (const rel of randomChildren(folder, 60)) {
          assert.ok(protectedPatternFor(rel), `${rel} is protected`);
          assert.deepEqual(await writableSpellings(root, rel), [], `no spelling of ${rel} lets an agent write it`);
        }
      }
    });

    it(`${agent.label}: what its install writes outside the workspace (its own config, an MCP entry) no workspace path reaches`, async () => {
      base = await realpath(await mkdtemp(join(tmpdir(), `ig-installed-${agent.id}-`)));
      const { root, home, changes } = await install(agent, base);
      const outside = [...(await filesBelow(home)), ...changes.map((change) => change.file)].filter((file) => relative(root, file).startsWith('..'));
      for (const file of outside) {
        for (const spelling of [file, relative(root, file).split(sep).join('/')]) {
          const target = await canonicalizePath(root, spelling, 'write', { caseInsensitive: false });
          assert.equal(target.ok ? 'ok' : target.error.code, 'PATH_OUTSIDE_WORKSPACE', spelling);
        }
      }
    });
  }
});
