import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finished } from './childProcesses';
import { removeTree } from './removeTree';
import { runGovernor } from './runGovernor';
import { connectGovernorMcp, resultErrorCode, resultText } from './stdioMcpClient';

/** One developer of the team: a clone of the shared origin with a home, a signing key and a git identity of their own. */
export interface Member {
  name: string;
  dir: string;
  home: string;
  env: Record<string, string>;
  git(...args: string[]): string;
  /** The developer's agent writes `path` through `governor mcp` under the intent, as an MCP client does. */
  agentWrites(path: string, content: string, intent?: string): Promise<void>;
  governor(...args: string[]): Promise<Finished>;
}

export interface Team {
  root: string;
  origin: string;
  member(name: string, options?: { autocrlf?: boolean }): Promise<Member>;
  /** A fresh clone as CI makes one, running `governor` with no anchors and no key of its own. */
  ci(args: string[], options?: { env?: Record<string, string>; branch?: string }): Promise<Finished>;
  dispose(): Promise<void>;
}

export const TEAM_INTENTS = `active_intents:
  - id: app
    name: Build the app
    status: IN_PROGRESS
    approval: destructive-only
    owned_scope:
      - src/**
`;

/** A developer's machine is not CI, even when the suite runs in CI: the variables CI sets are unset for members. */
const NOT_CI = { CI: undefined, GITHUB_ACTIONS: undefined, GITHUB_BASE_REF: undefined, GITHUB_STEP_SUMMARY: undefined };

const gitEnv = (home: string) => ({ ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' });

function run(cwd: string, home: string, args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv(home), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A bare origin whose main holds the plan, and members who clone it. Everything is real: git, the governor CLI and its
 * MCP server as child processes, each member's key made by `governor keys init` in their own home.
 */
export async function createTeam(): Promise<Team> {
  const root = await mkdtemp(join(tmpdir(), 'ig-team-'));
  const origin = join(root, 'origin.git');
  const seedHome = join(root, 'seed-home');
  await mkdir(seedHome, { recursive: true });
  run(root, seedHome, ['init', '--quiet', '--bare', '-b', 'main', origin]);
  const seed = join(root, 'seed');
  run(root, seedHome, ['clone', '--quiet', origin, seed]);
  await mkdir(join(seed, '.orchestration'), { recursive: true });
  await writeFile(join(seed, '.orchestration', 'active_intents.yaml'), TEAM_INTENTS);
  run(seed, seedHome, ['-c', 'user.name=Seed', '-c', 'user.email=seed@example.test', 'add', '-A']);
  run(seed, seedHome, ['-c', 'user.name=Seed', '-c', 'user.email=seed@example.test', 'commit', '--quiet', '-m', 'The plan']);
  run(seed, seedHome, ['push', '--quiet', 'origin', 'main']);
  let ciCount = 0;

  return {
    root,
    origin,
    async member(name, options = {}) {
      const home = join(root, `${name}-home`);
      const dir = join(root, name);
      await mkdir(home, { recursive: true });
      run(root, home, ['clone', '--quiet', origin, dir]);
      const git = (...args: string[]) => run(dir, home, args);
      git('config', 'user.name', name);
      git('config', 'user.email', `${name}@example.test`);
      if (options.autocrlf) git('config', 'core.autocrlf', 'true');
      const env = { HOME: home, INTENT_GOVERNOR_HOME: join(home, '.intent-governor') };
      const anchorDir = join(home, 'anchors');
      const governor = (...args: string[]) => runGovernor(args, { cwd: dir, anchorDir, home, env: { ...NOT_CI, ...env } });
      const member: Member = {
        name,
        dir,
        home,
        env,
        git,
        governor,
        async agentWrites(path, content, intent = 'app') {
          const client = await connectGovernorMcp(dir, anchorDir, ['--approve', 'never'], `${name}-agent`, env);
          try {
            const selected = await client.callTool({ name: 'select_active_intent', arguments: { intent_id: intent } });
            if (resultErrorCode(selected)) throw new Error(`${name}: select_active_intent failed: ${resultText(selected)}`);
            const wrote = await client.callTool({ name: 'write_file', arguments: { path, content } });
            if (resultErrorCode(wrote)) throw new Error(`${name}: write_file ${path} failed: ${resultText(wrote)}`);
          } finally {
            await client.close();
          }
        },
      };
      const init = await governor('keys', 'init', '--name', name);
      if (init.code !== 0) throw new Error(`${name}: keys init failed: ${init.stdout}${init.stderr}`);
      return member;
    },
    async ci(args, options = {}) {
      ciCount += 1;
      const home = join(root, `ci-home-${ciCount}`);
      const dir = join(root, `ci-${ciCount}`);
      await mkdir(home, { recursive: true });
      run(root, home, ['clone', '--quiet', ...(options.branch ? ['--branch', options.branch] : []), origin, dir]);
      try {
        return await runGovernor(args, { cwd: dir, anchorDir: join(home, 'anchors'), home, env: { ...NOT_CI, INTENT_GOVERNOR_HOME: join(home, '.intent-governor'), CI: 'true', ...options.env } });
      } finally {
        await removeTree(dir);
      }
    },
    dispose: () => removeTree(root),
  };
}

/** Stages everything (as `git add -A` would), commits and pushes the member's current branch. */
export function commitAndPush(member: Member, message: string, branch?: string): void {
  member.git('add', '-A');
  member.git('commit', '--quiet', '-m', message);
  member.git('push', '--quiet', 'origin', branch ?? member.git('rev-parse', '--abbrev-ref', 'HEAD').trim());
}

/** One session of a member's agent through `governor mcp`, bound to an intent, for calls a test wants to see refused. */
export interface AgentSession {
  /** The tool's result: its tool_error code (undefined on success) and text. */
  call(name: string, args: Record<string, unknown>): Promise<{ code?: string; text: string }>;
  close(): Promise<void>;
}

/** Opens an agent session for `member` as agentWrites does; `approve: 'always'` lets the calls that ask a human through. */
export async function agentSession(member: Member, options: { approve?: 'never' | 'always'; intent?: string } = {}): Promise<AgentSession> {
  const client = await connectGovernorMcp(member.dir, join(member.home, 'anchors'), ['--approve', options.approve ?? 'never'], `${member.name}-agent`, member.env);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const code = resultErrorCode(result);
    return { ...(code ? { code } : {}), text: resultText(result) };
  };
  const selected = await call('select_active_intent', { intent_id: options.intent ?? 'app' });
  if (selected.code) {
    await client.close();
    throw new Error(`${member.name}: select_active_intent failed: ${selected.text}`);
  }
  return { call, close: () => client.close() };
}
