import { BRIDGE_TIMEOUT_MS, LAUNCHER_MISSING_REASON } from '../common/hookCommand';
import type { ConfigEdit } from '../common/hookFileEdit';
import { AGENT_HOOK_PATH, ENDPOINTS_IN_HOME, FORWARDED_ENV, forwardedEnvHeader, RESIDENT_HEADERS, STDERR_MARKER } from '../common/residentProtocol';

/**
 * The plugin `governor hooks install --agent opencode` writes. OpenCode's hooks are plugins (JS modules it loads
 * from `.opencode/plugins/` and `.opencode/plugin/`), so ours is a small module that hands every tool call to the
 * hook process (the per-user launcher, `<governor home>/bin/governor-hook hook opencode`, the same process other
 * agents' command hooks start) and throws with the governor's reason unless it answered allow. The launcher's path is
 * computed when the plugin loads (INTENT_GOVERNOR_HOME, else ~/.intent-governor), so the file names no path of this
 * machine and works in a teammate's clone. Node built-ins only: it needs none of the packages OpenCode installs
 * into .opencode/ at start.
 *
 * The plugin runs inside OpenCode's own runtime, so it reaches the workspace's resident governor itself, as the
 * launcher's bash client does (residentProtocol.ts): the same request from the same cwd, with no process per tool
 * call. Anything short of a whole answer (no endpoint, a resident that is gone, a 421, a torn reply) goes to the
 * launcher, whose Node hook decides and starts a resident; a resident that does not answer in time is a refusal.
 */

/** The first line of our plugin: how install and uninstall tell it from a file the person wrote. */
export const OPENCODE_PLUGIN_MARKER = '// intent-governor: OpenCode plugin';

/** The bridge answers "blocked" after its timeout; the plugin stops waiting for the launcher a little later and blocks too. */
const PLUGIN_TIMEOUT_MARGIN_MS = 10_000;

/** The plugin's text; `timeoutMs` is the hook's timeout, BRIDGE_TIMEOUT_MS as installed (a test gives a short one). */
export function opencodePluginText(timeoutMs = BRIDGE_TIMEOUT_MS): string {
  return `${OPENCODE_PLUGIN_MARKER}, written by \`governor hooks install --agent opencode\` (remove it with \`governor hooks uninstall --agent opencode\`).
// Every tool call OpenCode makes is judged by Intent Governor before it runs; anything but an "allow" throws,
// which blocks the call and tells the model why. The workspace's resident governor is asked directly when it runs;
// else the launcher's hook process decides (and starts one). A hook process that cannot start, fails, times out or
// answers something unreadable blocks the call too, as does a resident that does not answer in time (fail closed).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// The per-user launcher Intent Governor writes (its extension on every start, or \`governor hooks install\`).
const HOME = process.env.INTENT_GOVERNOR_HOME || join(process.env.HOME || homedir(), '.intent-governor');
const LAUNCHER = join(HOME, 'bin', 'governor-hook');
const ARGS = ['hook', 'opencode', '--timeout-ms', '${timeoutMs}'];
const TIMEOUT_MS = ${timeoutMs + PLUGIN_TIMEOUT_MARGIN_MS};
const MISSING = ${JSON.stringify(LAUNCHER_MISSING_REASON)};
// The resident's answer: the exit code, the stdout, this marker on a line of its own, the stderr, and a final dot.
const MARKER = ${JSON.stringify(`
${STDERR_MARKER}
`)};
// The bash client's wait for the first byte of the answer: the hook's timeout and a second.
const RESIDENT_WAIT_MS = ${timeoutMs + 1000};

const refused = (why) => ({ decision: 'deny', reason: \`Intent Governor blocked this call: \${why} (governance fails closed).\` });

// As a header's raw bytes: the resident reads header values as the bash client sends them.
const bytes = (text) => Buffer.from(String(text), 'utf8').toString('latin1');

// The governed folder at or above the cwd the launcher would run in, and its resident's endpoint when there is one
// and its process lives (a resident that died without removing its endpoint left a port another program may hold).
function residentEndpoint() {
  // Without bash (Windows) hooks run one process per call, and no resident is started for them.
  if (process.env.INTENT_GOVERNOR_RESIDENT === 'off' || process.platform === 'win32') return undefined;
  try {
    const cwd = realpathSync(process.cwd());
    let root = cwd;
    while (root !== '' && !statSync(\`\${root}/.orchestration\`, { throwIfNoEntry: false })?.isDirectory()) root = root.slice(0, Math.max(0, root.lastIndexOf('/')));
    if (root === '') return undefined;
    const name = root.replaceAll('%', '%25').replaceAll('/', '%2F');
    const [port, token, pid] = readFileSync(join(HOME, ${JSON.stringify(ENDPOINTS_IN_HOME)}, \`\${name}.endpoint\`), 'utf8').trim().split(/\\s+/);
    if (!/^\\d+$/.test(port) || !token || !(Number(pid) > 0)) return undefined;
    process.kill(Number(pid), 0);
    return { port, token, pid, cwd };
  } catch {
    return undefined;
  }
}

// The resident's answer as the launcher would print it ({ code, out, err }); undefined when it gave no whole answer
// and the launcher must decide; a refusal when it did not answer in time.
async function askResident(payload) {
  const endpoint = residentEndpoint();
  if (!endpoint) return undefined;
  const headers = {
    authorization: \`Bearer \${endpoint.token}\`,
    'content-type': 'application/json',
    ${JSON.stringify(RESIDENT_HEADERS.agent)}: 'opencode',
    ${JSON.stringify(RESIDENT_HEADERS.cwd)}: bytes(endpoint.cwd),
    ${JSON.stringify(RESIDENT_HEADERS.timeoutMs)}: '${timeoutMs}',
  };
  for (const [name, header] of ${JSON.stringify(FORWARDED_ENV.map((name) => [name, forwardedEnvHeader(name)]))}) if (process.env[name] !== undefined) headers[header] = bytes(process.env[name]);
  const signal = AbortSignal.timeout(RESIDENT_WAIT_MS);
  let text;
  try {
    const response = await fetch(\`http://127.0.0.1:\${endpoint.port}${AGENT_HOOK_PATH}\`, { method: 'POST', headers, body: JSON.stringify(payload), signal });
    if (response.status !== 200) {
      // Read to its end (a few bytes), so the connection is not held open until a collection frees it.
      await response.arrayBuffer();
      return undefined;
    }
    text = await response.text();
  } catch {
    // Refused or reset: the launcher decides. No answer in time: refused, never allowed.
    return signal.aborted ? { refusal: refused(\`the resident governor (pid \${endpoint.pid}) did not answer within \${RESIDENT_WAIT_MS / 1000} s\`) } : undefined;
  }
  const newline = text.indexOf('\\n');
  const marker = text.lastIndexOf(MARKER);
  const code = text.slice(0, newline);
  if (newline < 0 || marker < newline || !text.endsWith('.') || !/^[012]$/.test(code)) return undefined;
  return { code: Number(code), out: text.slice(newline + 1, marker), err: text.slice(marker + MARKER.length, -1) };
}

// What the launcher answered, when it ran and ended ({ code, out, err }), else the refusal.
function askLauncher(payload) {
  return new Promise((resolve) => {
    if (!existsSync(LAUNCHER)) {
      resolve({ refusal: { decision: 'deny', reason: \`Intent Governor blocked this call: \${MISSING} (\${LAUNCHER} is missing)\` } });
      return;
    }
    let child;
    try {
      child = spawn(LAUNCHER, ARGS, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch (error) {
      resolve({ refusal: refused(\`its hook process could not start (\${error?.message ?? error})\`) });
      return;
    }
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ refusal: refused(\`its hook process did not answer within \${TIMEOUT_MS} ms\`) });
    }, TIMEOUT_MS);
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ refusal: refused(\`its hook process could not start (\${error.message})\`) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

// The hook's answer, from the resident or else the launcher: an allow, or a deny with its reason.
async function ask(payload) {
  const ran = (await askResident(payload)) ?? (await askLauncher(payload));
  if (ran.refusal) return ran.refusal;
  const { code, out, err } = ran;
  let answer;
  try {
    answer = JSON.parse(out.trim().split('\\n').pop() ?? '');
  } catch {
    answer = undefined;
  }
  // The launcher's own refusals (node missing, the bundle gone) already start with our prefix.
  const said = err.trim().replace(/^Intent Governor blocked this call: /, '');
  if (code === 0 && answer && (answer.decision === 'allow' || (answer.decision === 'deny' && typeof answer.reason === 'string'))) return answer;
  return typeof answer?.reason === 'string' ? { decision: 'deny', reason: answer.reason } : refused(said || \`its hook process (\${LAUNCHER}) exited with \${code} and no answer; check that node is on the PATH OpenCode runs with\`);
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
