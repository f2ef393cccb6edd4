import { BRIDGE_TIMEOUT_MS, LAUNCHER_MISSING_REASON } from '../common/hookCommand';
import type { ConfigEdit } from '../common/hookFileEdit';

/**
 * The plugin `governor hooks install --agent opencode` writes. OpenCode's hooks are plugins (JS modules it loads
 * from `.opencode/plugins/` and `.opencode/plugin/`), so ours is a small module that hands every tool call to the
 * hook process (the per-user launcher, `<governor home>/bin/governor-hook hook opencode`, the same process other
 * agents' command hooks start) and throws with the governor's reason unless it answered allow. The launcher's path is
 * computed when the plugin loads (INTENT_GOVERNOR_HOME, else ~/.intent-governor), so the file names no path of this
 * machine and works in a teammate's clone. Node built-ins only: it needs none of the packages OpenCode installs
 * into .opencode/ at start.
 */

/** The first line of our plugin: how install and uninstall tell it from a file the person wrote. */
export const OPENCODE_PLUGIN_MARKER = '// intent-governor: OpenCode plugin';

/** The bridge answers "blocked" after BRIDGE_TIMEOUT_MS; the plugin stops waiting a little later and blocks too. */
const PLUGIN_TIMEOUT_MS = 120_000;

export function opencodePluginText(): string {
  return `${OPENCODE_PLUGIN_MARKER}, written by \`governor hooks install --agent opencode\` (remove it with \`governor hooks uninstall --agent opencode\`).
// Every tool call OpenCode makes is judged by Intent Governor before it runs; anything but an "allow" throws,
// which blocks the call and tells the model why. A hook process that cannot start, fails, times out or answers
// something unreadable blocks the call too (fail closed).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// The per-user launcher Intent Governor writes (its extension on every start, or \`governor hooks install\`).
const LAUNCHER = join(process.env.INTENT_GOVERNOR_HOME || join(process.env.HOME || homedir(), '.intent-governor'), 'bin', 'governor-hook');
const ARGS = ['hook', 'opencode', '--timeout-ms', '${BRIDGE_TIMEOUT_MS}'];
const TIMEOUT_MS = ${PLUGIN_TIMEOUT_MS};
const MISSING = ${JSON.stringify(LAUNCHER_MISSING_REASON)};

const refused = (why) => ({ decision: 'deny', reason: \`Intent Governor blocked this call: \${why} (governance fails closed).\` });

function ask(payload) {
  return new Promise((resolve) => {
    if (!existsSync(LAUNCHER)) {
      resolve({ decision: 'deny', reason: \`Intent Governor blocked this call: \${MISSING} (\${LAUNCHER} is missing)\` });
      return;
    }
    let child;
    try {
      child = spawn(LAUNCHER, ARGS, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch (error) {
      resolve(refused(\`its hook process could not start (\${error?.message ?? error})\`));
      return;
    }
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(refused(\`its hook process did not answer within \${TIMEOUT_MS} ms\`));
    }, TIMEOUT_MS);
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(refused(\`its hook process could not start (\${error.message})\`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      let answer;
      try {
        answer = JSON.parse(out.trim().split('\\n').pop() ?? '');
      } catch {
        answer = undefined;
      }
      // The launcher's own refusals (node missing, the bundle gone) already start with our prefix.
      const said = err.trim().replace(/^Intent Governor blocked this call: /, '');
      if (code === 0 && answer && (answer.decision === 'allow' || (answer.decision === 'deny' && typeof answer.reason === 'string'))) resolve(answer);
      else resolve(typeof answer?.reason === 'string' ? { decision: 'deny', reason: answer.reason } : refused(said || \`its hook process (\${LAUNCHER}) exited with \${code} and no answer; check that node is on the PATH OpenCode runs with\`));
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

export const IntentGovernor = async ({ directory, worktree }) => {
  // What the governor tells the model once per session (its intent), asked before the first model request.
  const briefings = new Map();
  return {
    'experimental.chat.system.transform': async (input, output) => {
      const sessionID = input?.sessionID;
      if (typeof sessionID !== 'string' || !Array.isArray(output?.system)) return;
      if (!briefings.has(sessionID)) {
        const briefing = ask({ event: 'session.start', sessionID, directory, worktree }).then((answer) => (answer.decision === 'allow' && typeof answer.context === 'string' && answer.context !== '' ? answer.context : undefined));
        briefings.set(sessionID, briefing);
      }
      const context = await briefings.get(sessionID);
      if (context !== undefined) output.system.push(context);
    },
    'tool.execute.before': async (input, output) => {
      const args = output?.args && typeof output.args === 'object' ? output.args : {};
      const answer = await ask({ event: 'tool.execute.before', sessionID: input.sessionID, callID: input.callID, tool: input.tool, args, directory, worktree });
      if (answer.decision !== 'allow') throw new Error(answer.reason);
      // The user's hooks may rewrite the input: OpenCode runs the args object it handed us.
      if (answer.args && typeof answer.args === 'object' && output?.args && typeof output.args === 'object') {
        for (const key of Object.keys(output.args)) delete output.args[key];
        Object.assign(output.args, answer.args);
      }
    },
    'tool.execute.after': async (input, output) => {
      const result = { title: output?.title, output: output?.output };
      const answer = await ask({ event: 'tool.execute.after', sessionID: input.sessionID, callID: input.callID, tool: input.tool, args: input.args ?? {}, directory, worktree, result });
      const note = answer.decision === 'allow' ? answer.context : answer.reason;
      if (typeof note === 'string' && note !== '' && typeof output?.output === 'string') output.output += \`\\n\\n\${note}\`;
    },
    event: async ({ event }) => {
      // What a running extension kept for the session (its read ledger) is freed when OpenCode deletes it.
      if (event?.type === 'session.deleted' && typeof event.properties?.info?.id === 'string') {
        briefings.delete(event.properties.info.id);
        await ask({ event: 'session.deleted', sessionID: event.properties.info.id, directory, worktree });
      }
    },
  };
};
`;
}

export function isOurOpencodePlugin(text: string | undefined): boolean {
  return text !== undefined && text.startsWith(OPENCODE_PLUGIN_MARKER);
}

/** Our plugin, replacing an older one of ours; a file of the person's own at that path is left alone. */
export function installOpencodePlugin(existing: string | undefined, file: string): ConfigEdit {
  if (existing !== undefined && existing.trim() !== '' && !isOurOpencodePlugin(existing)) {
    return { ok: false, message: `${file} exists and is not Intent Governor's plugin; it was left unchanged. Move it aside and install again` };
  }
  return { ok: true, text: opencodePluginText() };
}

/** Removes only our plugin; a file of the person's own stays as it is. */
export function uninstallOpencodePlugin(existing: string | undefined): ConfigEdit {
  if (existing === undefined) return { ok: true, text: null };
  return { ok: true, text: isOurOpencodePlugin(existing) ? null : existing };
}
