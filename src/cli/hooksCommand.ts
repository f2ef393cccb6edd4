import { existsSync, realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { detectClaudeHookKind } from '../core/agents/claude/claudeVersion';
import { AGENT_IDS, isAgentId, type HookAgent } from '../core/agents/registry';
import { type ClaudeHookKind } from '../core/agents/common/hookFileEdit';
import { installDoors } from '../core/agents/doorsInstall';
import { FileHookRunLog } from '../core/userHooks/fileHookRunLog';
import { FileHookApprovals } from '../core/userHooks/hookApprovals';
import { loadHookLayers } from '../core/userHooks/hookLayers';
import { hookListing, LISTING_DOOR, type HookListingPorts } from '../core/userHooks/hookListing';
import { governanceListing, governanceListingText } from '../core/agents/governanceListing';
import { governorHome } from '../core/paths/governorHome';
import { parseCliArgs, usageError, workspaceFrom } from './cliArgs';
import type { CliCommand, CliIO } from './cliCommand';
import { trustHooks } from './hooksTrust';
import { hookApprovalsDir, storeIn } from '../core/paths/userStores';

const USAGE = `governor hooks: see and trust user hooks; install or remove the hook bridge in agents' hook configs

Usage: governor hooks list [--workspace DIR] [--json]
       governor hooks trust [--workspace DIR] [--yes]
       governor hooks <install|uninstall> [--agent ${AGENT_IDS.join('|')}] [--workspace DIR] [--claude-hooks mcp_tool|command]

list shows everything that governs a call in this workspace, in the order a call meets it: the agent doors
\`hooks install\` wrote (per agent: its hook file, the events with a hook of ours, whether the file is what an
install writes now), then every hook the governor runs: the managed file, ~/.intent-governor/hooks.json (yours, runs
without approval), .orchestration/hooks.json, .orchestration/hooks.yaml, .agents/hooks.toml and Claude Code's
settings files (run for every other agent; Claude Code runs them itself), one row per hook: event, matcher and
\`if\`, type (command, args, http, prompt; async, asyncRewake, once), source file, state (approved, not approved,
user's own) and how its last run ended; then the built-in guards, which always run. Files that cannot be read are
listed below. --json prints {"doors": [...], "hooks": [...], "problems": [...], "warnings": [...], "notes": [...],
"guards": [...]}. Exit 0; 1 when a hooks file has a problem.

trust shows each project hook that is not approved yet, exactly as it would run, and asks "Approve these N
hooks? [y/N]"; on y each is approved by the hash of what it runs (a changed hook asks again). Only a person may
approve: without a terminal on stdin it refuses (exit 2) unless --yes is given, for a script you run yourself.
Agents are refused this command. Exit 0 approved or nothing to approve; 1 not approved or a file has a problem.

install writes the hook launcher ~/.intent-governor/bin/governor-hook (under $INTENT_GOVERNOR_HOME when set;
outside the workspace, pointing at dist/hook.js beside this CLI; the extension rewrites it each time it starts),
then writes (or merges into) .github/hooks/intent-governor.json (VS Code), .claude/settings.local.json
(Claude Code) and .cursor/hooks.json (Cursor), each running the launcher as \`hook <agent>\` and naming no path
of this machine, so the files can be committed; every failure (no launcher on a teammate's machine, node missing,
a hook that dies without an answer) blocks the call in that agent's terms. The user's other hooks and settings are kept. For Claude Code 2.1.118+ (detected with \`claude --version\`, or
--claude-hooks mcp_tool) every tool and event goes instead to mcp_tool hooks answered by the resident governor,
\`governor mcp --agent claude\`, registered as this project's local-scope MCP server in ~/.claude.json (this
machine's path stays out of the repository); the model is denied the hook tool itself. For Codex CLI it writes
.codex/hooks.json and has the installed \`codex\` trust those hooks (its app-server records their hashes in
$CODEX_HOME/config.toml, as its /hooks screen does); Codex reads .codex/ only in a project the person trusts, so
an untrusted project fails the install with what to do. For Gemini CLI it merges into .gemini/settings.json;
Gemini CLI runs those hooks only when started in this folder, and only once the person trusts it. For GitHub Copilot
CLI it writes .github/hooks/intent-governor-copilot.json (camelCase events); Copilot CLI runs a repository's hooks
only once the person trusts the folder, and runs VS Code's and Claude Code's entries too, which then stand aside
for the copilot one. For Cline it writes a script per event (PreToolUse.sh, PostToolUse.sh, SessionShutdown.sh) in
.clinerules/hooks/, beside the user's own hook files. uninstall removes only
our entries (and a file left empty). Default: every agent. These files are protected from agents; run this
yourself. Exit 0 done; 1 a file could not be changed.
`;

const MODES = ['list', 'trust', 'install', 'uninstall'] as const;
type Mode = (typeof MODES)[number];
/** Which options each mode takes; any other is a usage error rather than silently ignored. */
const MODE_OPTIONS: Record<Mode, string[]> = { list: ['workspace', 'json'], trust: ['workspace', 'yes'], install: ['workspace', 'agent', 'claude-hooks'], uninstall: ['workspace', 'agent'] };

export const hooksCommand: CliCommand = {
  name: 'hooks',
  summary: 'List and trust user hooks; install or remove the hook bridge in agent hook configs',
  usage: USAGE,
  async run(args, io) {
    const parsed = parseCliArgs(
      args,
      { agent: { type: 'string', multiple: true } as never, workspace: { type: 'string' }, json: { type: 'boolean' }, yes: { type: 'boolean' }, 'claude-hooks': { type: 'string' } },
      true,
    );
    if (!parsed.ok) return usageError(io, 'hooks', parsed.message);
    const mode = parsed.positionals[0] as Mode;
    if (!MODES.includes(mode) || parsed.positionals.length !== 1) return usageError(io, 'hooks', `expected one of ${MODES.join(', ')}`);
    const stray = Object.keys(parsed.values).find((option) => parsed.values[option] !== undefined && !MODE_OPTIONS[mode].includes(option));
    if (stray) return usageError(io, 'hooks', `'${mode}' takes no --${stray}`);
    const root = await workspaceFrom(parsed.values.workspace, io, 'hooks');
    if (root === undefined) return 2;
    if (mode === 'list' || mode === 'trust') return userHooks(mode, await realpath(root), parsed.values.json === true, parsed.values.yes === true, io);
    const kind = parsed.values['claude-hooks'] as string | undefined;
    if (kind !== undefined && kind !== 'mcp_tool' && kind !== 'command') return usageError(io, 'hooks', `--claude-hooks must be 'mcp_tool' or 'command', not '${kind}'`);
    return installBridge(mode, root, (parsed.values.agent as unknown as string[] | undefined) ?? [...AGENT_IDS], kind, io);
  },
};

async function userHooks(mode: 'list' | 'trust', root: string, json: boolean, yes: boolean, io: CliIO): Promise<number> {
  // The same places the governor reads them from: the approvals beside the anchors, the run log in its home.
  const home = governorHome(io.env);
  const approvals = new FileHookApprovals(hookApprovalsDir(io.env));
  // Headless, the workspace counts as trusted: a person chose to run the governor on it.
  const ports: HookListingPorts = { approvals, runLog: new FileHookRunLog(storeIn(home, 'hook-runs')), trusted: true };
  if (mode === 'trust') {
    const declared = loadHookLayers(root, { home, door: LISTING_DOOR });
    return trustHooks(root, await hookListing(root, declared, ports), declared.hooks, approvals, yes, io);
  }
  const listing = await governanceListing(root, { ...ports, home, env: io.env });
  io.stdout(json ? `${JSON.stringify(listing, null, 2)}\n` : governanceListingText(listing));
  return listing.problems.length ? 1 : 0;
}

async function installBridge(mode: 'install' | 'uninstall', root: string, requested: string[], requestedKind: ClaudeHookKind | undefined, io: CliIO): Promise<number> {
  const unknown = requested.filter((a) => !isAgentId(a));
  if (unknown.length) return usageError(io, 'hooks', `unknown agent '${unknown[0]}' (expected ${AGENT_IDS.join(', ')})`);
  // Point agents at the small hook bundle beside this CLI when it is there (dist/hook.js), else at this CLI.
  // `npm link` puts a link named `governor` on PATH: the files beside this CLI are beside what the link points to.
  const invoked = resolve(process.argv[1] ?? 'dist/cli.js');
  const self = realpathOr(invoked);
  const hookBundle = join(dirname(self), 'hook.js');
  const cliPath = existsSync(hookBundle) ? hookBundle : self;
  const report = await installDoors(root, { mode, agents: requested as HookAgent[], hookScript: cliPath, env: io.env, claudeHooks: claudeHookKind(requested, mode, requestedKind, io) });
  let failed = false;
  if (report.launcher && 'problem' in report.launcher) {
    io.stderr(`governor hooks: cannot write the hook launcher (${report.launcher.problem}); the installed hooks will refuse every call until it exists\n`);
    failed = true;
  } else if (report.launcher) io.stdout(`launcher: ${report.launcher.file} ${report.launcher.action}\n`);
  for (const change of report.changes) {
    if (change.action === 'failed') {
      failed = true;
      io.stderr(`governor hooks: ${change.agent}: ${change.message}\n`);
    } else io.stdout(`${change.agent}: ${change.file} ${change.action}${change.note ? ` (${change.note})` : ''}\n`);
  }
  // A team shares the logs through git: the merge marks and the ignored scratch files come with the doors.
  if (report.git && 'problem' in report.git) io.stderr(`governor hooks: cannot write the git files of .orchestration/ (${report.git.problem}); \`governor doctor\` says what git would do wrong\n`);
  else for (const file of report.git?.written ?? []) io.stdout(`git: ${file} written (commit it with the hook files)\n`);
  return failed ? 1 : 0;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** --claude-hooks, else what the installed Claude Code can run (said on stdout, so the person knows which). */
function claudeHookKind(requested: string[], mode: 'install' | 'uninstall', flag: ClaudeHookKind | undefined, io: CliIO): ClaudeHookKind | undefined {
  if (mode !== 'install' || !requested.includes('claude')) return flag;
  if (flag) return flag;
  const detected = detectClaudeHookKind(io.env);
  const found = detected.version ? `Claude Code ${detected.version}` : 'no claude on PATH';
  io.stdout(`claude: ${detected.kind === 'mcp_tool' ? 'mcp_tool hooks answered by the resident governor' : 'command hooks (mcp_tool hooks need Claude Code 2.1.118+)'} (${found}; --claude-hooks chooses)\n`);
  return detected.kind;
}
