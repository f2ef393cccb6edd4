import type { HookDialect } from './hookDialect';
import { LAUNCHER_SHELL_PATH } from '../../userHooks/ourHookCommand';
import { RESIDENT_CLIENT_SUFFIX } from './hookLauncher';

/**
 * The command every installed hook runs, the same for every agent but the agent's name and its blocking answer:
 * it names the per-user launcher (hookLauncher.ts), never this machine's path, and it blocks in the agent's own
 * terms on every way the hook can fail to answer. Several agents run a tool when a hook fails in a way they do
 * not read as a refusal (Gemini CLI and Codex CLI block on exit 2 only with text on stderr; Copilot CLI and Cline
 * read a refusal from stdout), so the shell that runs the hook turns each failure into that agent's block:
 *
 * - the launcher is missing (a teammate's clone on a machine without Intent Governor): refused, saying what to install;
 * - the hook exits with anything but 0 or 2, or with 2 and nothing on stderr (node missing, killed, a crash that
 *   printed nothing): refused, with the reason and whatever it printed on stderr.
 *
 * The blocking answer is the agent's own `renderFailure` (its dialect, in its folder), so no agent can be installed
 * without one. The hook's stdout passes through untouched (fd 3); its stderr is captured to tell whether it said
 * anything, then printed. No process beyond the agent's shell and the hook itself: builtins only.
 */

/** The bridge answers "blocked" after this; each agent's own hook timeout is set above it. */
export const BRIDGE_TIMEOUT_MS = 110_000;

/** Where committed files name the launcher: the one fixed prefix of every command we install (see isOurCommand). */
export const LAUNCHER_ASSIGNMENT = `ig_l="${LAUNCHER_SHELL_PATH}"`;

/** What a teammate without Intent Governor reads (no `$`, backtick, quote or backslash: it is embedded in shell and JSON). */
export const LAUNCHER_MISSING_REASON =
  'its hook launcher is not installed for this user. Install Intent Governor: the VS Code extension writes the launcher (bin/governor-hook in ~/.intent-governor, or in INTENT_GOVERNOR_HOME when that is set) each time it starts; with the governor command line instead (npm link in a clone of the intent-governor repository), run governor hooks install in this workspace. Until then every call is refused (governance fails closed).';

/** What is said when the hook ran and did not answer (its own error, if any, is on stderr above it). */
export const HOOK_FAILED_REASON = 'its hook process ended without an answer. Check that node is on the PATH the agent runs its hooks with, then run governor hooks install again. Until then every call is refused (governance fails closed).';

/** Stands for the reason in the agent's blocking answer, so the shell can put either reason there. */
const REASON_SLOT = 'IG_REASON_SLOT';

function shellQuote(text: string): string {
  return `'${text.replace(/'/gu, "'\\''")}'`;
}

/**
 * The agent's blocking answer on stdout, as shell words around `"$ig_m"` (the reason the shell chose); nothing for
 * an agent that reads no stdout for a block.
 */
function answerWords(dialect: Pick<HookDialect, 'renderFailure'>): string {
  const stdout = dialect.renderFailure(REASON_SLOT).stdout.replace(/\n+$/u, '');
  if (stdout === '') return '';
  const parts = stdout.split(REASON_SLOT);
  const words = parts.length > 1 ? parts.map(shellQuote).join('"$ig_m"') : shellQuote(dialect.renderFailure(HOOK_FAILED_REASON).stdout.replace(/\n+$/u, ''));
  return ` printf '%s\\n' ${words};`;
}

/**
 * `governor hook <agent>` as the agent's hook command. Windows' shells (PowerShell, cmd) cannot run the POSIX
 * wrapping: there the command names this machine's `cliPath` as before.
 */
export function agentHookCommand(dialect: Pick<HookDialect, 'id' | 'renderFailure'>, cliPath: string, platform: NodeJS.Platform = process.platform): string {
  const call = `hook ${dialect.id} --timeout-ms ${BRIDGE_TIMEOUT_MS}`;
  if (platform === 'win32') return `node ${JSON.stringify(cliPath)} ${call}`;
  // An agent whose block is exit 2 takes the hook's own exit 2 with a reason as it is; one whose block is on
  // stdout (exit 0) gets its refusal printed for any non-zero exit.
  const exitCode = dialect.renderFailure(HOOK_FAILED_REASON).exitCode;
  return [
    `${LAUNCHER_ASSIGNMENT}; ig_e=;`,
    `ig_block() { printf '%s\\n' "Intent Governor blocked this call: $ig_m ($ig_d)" >&2;${answerWords(dialect)} exit ${exitCode}; };`,
    // Under bash, the resident client runs in this shell (no process of its own); it exits with a whole answer or
    // its block, and returns when it cannot reach a resident. Any other shell, or no client: the launcher decides.
    `[ -z "\${BASH_VERSION-}" ] || [ ! -r "$ig_l${RESIDENT_CLIENT_SUFFIX}" ] || . "$ig_l${RESIDENT_CLIENT_SUFFIX}" ${call};`,
    `if [ -x "$ig_l" ]; then { ig_e=$("$ig_l" ${call} 2>&1 1>&3 3>&-); ig_r=$?; } 3>&1; else ig_r=127; fi;`,
    `[ -z "$ig_e" ] || printf '%s\\n' "$ig_e" >&2;`,
    `[ $ig_r -ne 0 ] || exit 0;`,
    ...(exitCode === 2 ? [`[ $ig_r -ne 2 ] || [ -z "$ig_e" ] || exit 2;`] : []),
    `if [ -x "$ig_l" ]; then ig_d="$ig_l exited with code $ig_r"; ig_m=${shellQuote(HOOK_FAILED_REASON)};`,
    `else ig_d="$ig_l is missing"; ig_m=${shellQuote(LAUNCHER_MISSING_REASON)}; fi;`,
    'ig_block',
  ].join(' ');
}


