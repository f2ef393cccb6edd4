import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileIntentSource } from '../../intents/fileIntentSource';
import { matchScope } from '../../policy/scope';
import { GOVERNANCE_LOG_FILE } from '../../trace/traceFiles';
import type { AgentAdapter } from '../common/agentAdapter';
import { firstLine, type CanaryCall, type CanaryReading, type CanaryReply } from '../common/canary';
import { matcherMatches } from '../../userHooks/hookMatcher';
import { AGENTS } from '../registry';
import type { DoctorPorts } from './doctorPorts';
import { ourHookFiles, ourJsonHandlers, readHookFile } from './installedDoors';
import { reportOk, type AgentDoorReport, type DoctorCheck, type DoctorReport, type DoorKind } from './doctorReport';

/**
 * `governor doctor`: for every registered agent whose hooks are installed in the workspace, a canary write no intent
 * owns is sent through the agent's real installed door, exactly as the agent would send it (its payload, its shell,
 * its working directory, the command or module found in its file), and the reply is read by the agent's own rules
 * (its adapter's `canary.blocks`). Nothing is ever written: a pre-tool check is all that runs. The governor records
 * each refusal in the governance log, under the session `<agent>:doctor:<uuid>`.
 */

export interface DoctorOptions {
  /** Per door (and per version check, which gets at most 15 s: agents' CLIs take seconds to start). */
  timeoutMs?: number;
  /** The environment agents run their hooks with (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Only these agents (default: every registered one). */
  agents?: readonly AgentAdapter[];
  /** Further checks of the governor itself, run after the doors (the command sandbox's, when it comes). */
  checks?: readonly ((workspace: string) => Promise<DoctorCheck>)[];
}

const DEFAULT_TIMEOUT_MS = 30_000;
const VERSION_TIMEOUT_MS = 15_000;
/** Variables an agent sets for its own hooks only: the doctor, run from such an agent's shell, must not pass them to another's. */
const AGENT_ONLY_ENV = ['COPILOT_CLI', 'COPILOT_PROJECT_DIR', 'CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR', 'GEMINI_CWD', 'GEMINI_SESSION_ID'];

export async function runDoctor(workspace: string, ports: DoctorPorts, options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agents = options.agents ?? AGENTS;
  const id = randomUUID();
  const call = await canaryCall(workspace, id);
  // Versions are asked all at once (some agents' CLIs take seconds to start); doors one after another.
  const versions = agents.map((agent) => versionOf(agent, ports, env, Math.min(timeoutMs, VERSION_TIMEOUT_MS)));
  const reports: AgentDoorReport[] = [];
  for (const [index, agent] of agents.entries()) {
    const checked = await checkDoor(agent, call, ports, env, timeoutMs).catch((error: unknown) => broken(agent, undefined, agent.hookFiles, `the doctor could not check this door (${messageOf(error)})`));
    const door = traceOnly(agent, checked);
    const { verdict, door: kind, hookFile, detail, fix } = door;
    reports.push({ agent: agent.id, label: agent.label, verdict, ...(kind ? { door: kind } : {}), hookFile, version: await versions[index], detail, ...(fix ? { fix } : {}) });
  }
  const checks: DoctorCheck[] = [];
  for (const check of options.checks ?? []) checks.push(await check(workspace));
  // A workspace with no .orchestration/ is governed by nobody: the hooks refuse changes there and record nothing.
  const recorded = reports.some((r) => r.verdict === 'enforced' || r.verdict === 'broken') && (await stat(join(workspace, '.orchestration')).catch(() => undefined))?.isDirectory() === true;
  const notes = recorded
    ? [
        `The governor recorded each refused canary in ${GOVERNANCE_LOG_FILE}, with a session_id (Claude Code's resident governor: an invocation_id) that starts <agent>:doctor:${id}: the log is hash-chained, so the doctor's records stay, marked as its own, and the intent map counts them as refusals. The canary file was never written.`,
      ]
    : [];
  return { workspace, canary: { path: call.relativePath, sessionId: call.sessionId }, agents: reports, checks, notes, ok: reportOk(reports, checks) };
}

/**
 * The canary: a file under the workspace that no intent owns, so every door refuses it whatever intent the agent
 * works under. A hidden folder no glob covers unless it names it; where one does (an intent owning `.*` or the
 * folder), a file under .orchestration/, which no intent may write (protected).
 */
async function canaryCall(workspace: string, id: string): Promise<CanaryCall> {
  const short = id.slice(0, 8);
  const candidates = [`.intent-governor-doctor/canary-${short}.txt`, `.orchestration/doctor-canary-${short}.txt`];
  const snapshot = await new FileIntentSource(workspace).load().catch(() => undefined);
  const globs = snapshot?.valid ? snapshot.intents.flatMap((intent) => intent.owned_scope) : [];
  const relativePath = candidates.find((rel) => matchScope(rel, globs, { caseInsensitive: true }) === undefined) ?? candidates[candidates.length - 1];
  return {
    workspace,
    path: join(workspace, ...relativePath.split('/')),
    relativePath,
    sessionId: `doctor:${id}`,
    callId: `doctor-canary-${short}`,
    content: 'Intent Governor doctor canary: this write must be refused.\n',
  };
}

async function versionOf(agent: AgentAdapter, ports: DoctorPorts, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  if (!agent.binary) return 'no binary (it runs inside its editor)';
  const found = await ports.version(agent.binary, env, timeoutMs).catch((error: unknown) => ({ found: true as const, text: `unknown (${messageOf(error)})` }));
  return found.found ? found.text : 'not found';
}

type DoorResult = Omit<AgentDoorReport, 'agent' | 'label' | 'version'>;

function installFix(agent: AgentAdapter): string {
  return `run \`governor hooks install --agent ${agent.id}\``;
}

function notInstalled(agent: AgentAdapter, hookFile: string): DoorResult {
  return { verdict: 'not installed', hookFile, detail: `no Intent Governor hooks in ${hookFile}`, fix: `governor hooks install --agent ${agent.id}` };
}

function broken(agent: AgentAdapter, door: DoorKind | undefined, hookFile: string, detail: string, fix = installFix(agent)): DoorResult {
  return { verdict: 'broken', ...(door ? { door } : {}), hookFile, detail, fix };
}

/** An installed door of an agent whose hooks can only trace: whatever the canary met, the agent's calls are not refused. */
function traceOnly(agent: AgentAdapter, result: DoorResult): DoorResult {
  if (agent.enforcement !== 'trace-only' || result.verdict === 'not installed') return result;
  return { ...result, verdict: 'trace-only', detail: `${agent.label}'s hooks can only trace its calls, not refuse them (the canary: ${result.detail})`, fix: `govern ${agent.label} through the intent-governor MCP server instead (Intent Governor: Connect Agent)` };
}

/** A reason the governor gave: it names the refusal's code (`[SCOPE_VIOLATION] …`, `[NO_ACTIVE_INTENT] …`). */
function governorDecided(reason: string): boolean {
  return /\[[A-Z][A-Z0-9_]+\]/u.test(reason);
}

/** The verdict on what came back from the door (the first reading that refused, else the first one). */
function verdictOf(agent: AgentAdapter, door: DoorKind, hookFile: string, readings: CanaryReading[]): DoorResult {
  const refusal = readings.find((r): r is Extract<CanaryReading, { blocked: true }> => r.blocked);
  if (refusal) {
    if (governorDecided(refusal.reason)) return { verdict: 'enforced', door, hookFile, detail: refusal.reason };
    return broken(agent, door, hookFile, `refused without reaching the governor, so every call is refused: ${refusal.reason}`);
  }
  const why = readings.map((r) => (r.blocked ? '' : r.why)).find(Boolean) ?? 'nothing answered';
  return broken(agent, door, hookFile, `the canary write was let through: ${why}`);
}

async function checkDoor(agent: AgentAdapter, call: CanaryCall, ports: DoctorPorts, baseEnv: NodeJS.ProcessEnv, timeoutMs: number): Promise<DoorResult> {
  const env: NodeJS.ProcessEnv = { ...baseEnv };
  for (const name of AGENT_ONLY_ENV) delete env[name];
  Object.assign(env, agent.canary.env?.(call) ?? {});
  const door = agent.canary.door;
  if (door.kind === 'json') return jsonDoor(agent, door, call, ports, env, timeoutMs);
  if (door.kind === 'script') return scriptDoor(agent, door, call, ports, env, timeoutMs);
  return pluginDoor(agent, door, call, ports, env, timeoutMs);
}

// ---------------------------------------------------------------------------------------------------------------
// A hook event in a JSON hook file

type Json = Record<string, unknown>;

/**
 * Whether a hook's matcher covers `tool`, as Claude Code (and the agents that copied its format) read one: none, ''
 * or '*' covers all; tool names (`Write|Edit`) cover exactly those; anything else is a regular expression tested
 * unanchored (the resident governor's `^(?!(?:Agent|…)$)` covers every tool but the ones it names).
 */
export function matcherCovers(matcher: unknown, tool: string): boolean {
  if (matcher === undefined || matcher === null) return true;
  return typeof matcher === 'string' && matcherMatches(matcher, [tool]);
}

async function jsonDoor(agent: AgentAdapter, door: Extract<AgentAdapter['canary']['door'], { kind: 'json' }>, call: CanaryCall, ports: DoctorPorts, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DoorResult> {
  const hooks = agent.jsonHooks;
  const hookFile = hooks?.shape.file ?? agent.hookFiles;
  if (!hooks) return broken(agent, 'command hook', hookFile, `${agent.label}'s adapter has a JSON door but no jsonHooks`, 'a bug in Intent Governor: report it');
  const read = await readHookFile(call.workspace, hookFile);
  if (read.state === 'missing') return notInstalled(agent, hookFile);
  if (read.state === 'unreadable') return broken(agent, undefined, hookFile, read.detail);
  let config: unknown;
  try {
    config = JSON.parse(read.text);
  } catch (error) {
    // Unreadable for the agent too: it loads no hooks from it, ours included.
    return broken(agent, undefined, hookFile, `${hookFile} is not valid JSON (${messageOf(error)}), so ${agent.label} reads no hooks from it`, `fix the JSON of ${hookFile}, or remove it and ${installFix(agent)}`);
  }
  const ours = ourJsonHandlers(agent, config);
  if (Object.keys(ours).length === 0) return notInstalled(agent, hookFile);
  const pre = Object.hasOwn(ours, door.event) ? ours[door.event] : [];
  if (pre.length === 0) return broken(agent, 'command hook', hookFile, `${hookFile} has Intent Governor's hooks but no ${door.event} entry of ours, so ${agent.label}'s tool calls are not checked before they run`);
  const covering = pre.filter((h) => matcherCovers(h.matcher, door.tool));
  const kind: DoorKind = pre.some((h) => h.handler.type === 'mcp_tool') ? 'resident (mcp_tool)' : 'command hook';
  if (covering.length === 0) return broken(agent, kind, hookFile, `our ${door.event} entry's matcher (${pre.map((h) => JSON.stringify(h.matcher)).join(', ')}) does not cover ${door.tool}, so ${agent.label} writes without asking the governor`);
  const payload = agent.canary.payload(call);
  const readings: CanaryReading[] = [];
  let problem: string | undefined;
  let server: string | undefined;
  for (const { handler } of covering) {
    if (handler.type === 'mcp_tool') {
      const outcome = await mcpToolDoor(agent, handler, payload, call, ports, env, timeoutMs);
      if ('problem' in outcome) problem ??= outcome.problem;
      else {
        server ??= outcome.server;
        readings.push(agent.canary.blocks(outcome.reply));
      }
      continue;
    }
    if (typeof handler.command !== 'string') continue;
    const run = await ports.run(door.shell, ['-c', handler.command], { cwd: call.workspace, env, stdin: JSON.stringify(payload), timeoutMs });
    const reply: CanaryReply = { via: 'process', exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr, entry: handler };
    readings.push(run.timedOut ? timedOut(agent, reply, timeoutMs) : agent.canary.blocks(reply));
  }
  if (problem !== undefined && !readings.some((r) => r.blocked)) return broken(agent, kind, hookFile, problem);
  const result = verdictOf(agent, kind, hookFile, readings);
  return server !== undefined && result.verdict === 'enforced' ? { ...result, detail: `${result.detail} (answered by the resident governor ${server})` } : result;
}

/** A door that did not answer in time: the agent's own limit is longer, but a canary that waits this long is a hang. */
function timedOut(agent: AgentAdapter, reply: CanaryReply, timeoutMs: number): CanaryReading {
  const reading = agent.canary.blocks(reply);
  return reading.blocked ? reading : { blocked: false, why: `the hook did not answer within ${Math.round(timeoutMs / 1000)} s (${agent.label} lets a tool run when its hook times out)` };
}

async function mcpToolDoor(agent: AgentAdapter, handler: Json, payload: Record<string, unknown>, call: CanaryCall, ports: DoctorPorts, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ reply: CanaryReply; server: string } | { problem: string }> {
  const server = typeof handler.server === 'string' ? handler.server : '';
  const tool = typeof handler.tool === 'string' ? handler.tool : '';
  if (!agent.canary.mcpServer || !agent.canary.mcpToolArguments) return { problem: `${agent.label} has no mcp_tool hooks, yet its ${agent.canary.door.kind} entry is one` };
  const found = await agent.canary.mcpServer(call.workspace, server, env);
  if (!found.ok) return { problem: `its mcp_tool hook calls the MCP server '${server}', which ${agent.label} cannot start: ${found.problem}` };
  const outcome = await ports.mcpTool({ command: found.command, args: found.args, cwd: call.workspace, env: { ...env, ...found.env }, tool, arguments: agent.canary.mcpToolArguments(handler.input, payload), timeoutMs });
  const onFailure = typeof handler.onFailure === 'string' ? handler.onFailure : undefined;
  if (!outcome.ok) {
    const where = `the resident governor ('${server}' in ${found.file}: ${[found.command, ...found.args].join(' ')})`;
    const what = outcome.stage === 'start' ? `${where} did not start or answer: ${outcome.message}` : outcome.stage === 'tool' ? `${where} has no tool '${tool}': ${outcome.message}` : `${where} failed the hook call: ${outcome.message}`;
    // A server that cannot start fails the hook; with onFailure "block" Claude Code refuses, but not by the governor's decision.
    return onFailure === 'block' ? { reply: { via: 'mcp_tool', text: what, isError: true, onFailure }, server: `'${server}' of ${found.file}` } : { problem: what };
  }
  return { reply: { via: 'mcp_tool', text: outcome.text, isError: outcome.isError, ...(onFailure ? { onFailure } : {}) }, server: `'${server}' of ${found.file}` };
}

// ---------------------------------------------------------------------------------------------------------------
// A hook file (Cline)

/** The argv an agent runs a hook file with: the interpreter on its `#!` line, else bash. */
export function scriptArgv(text: string, file: string): [string, ...string[]] {
  const shebang = /^#!\s*(\S+)(?:[ \t]+([^\n]*))?/u.exec(text);
  if (!shebang) return ['bash', file];
  const rest = shebang[2]?.trim();
  return [shebang[1], ...(rest ? rest.split(/\s+/u) : []), file];
}

async function scriptDoor(agent: AgentAdapter, door: Extract<AgentAdapter['canary']['door'], { kind: 'script' }>, call: CanaryCall, ports: DoctorPorts, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DoorResult> {
  const read = await readHookFile(call.workspace, door.file);
  if (read.state === 'unreadable') return broken(agent, 'scripts', door.file, read.detail);
  if (read.state === 'missing' || !door.isOurs(read.text)) {
    // Our other hook files there, without the pre-tool one: installed, and the pre-tool door is gone.
    if ((await ourHookFiles(call.workspace, agent.hookFiles, door.isOurs)).length > 0) return broken(agent, 'scripts', door.file, `${agent.hookFiles} has Intent Governor's hook files but ${door.file} is ${read.state === 'missing' ? 'missing' : 'not ours'}, so ${agent.label}'s tool calls are not checked before they run`);
    return notInstalled(agent, door.file);
  }
  const [file, ...args] = scriptArgv(read.text, join(call.workspace, ...door.file.split('/')));
  const run = await ports.run(file, args, { cwd: call.workspace, env, stdin: JSON.stringify(agent.canary.payload(call)), timeoutMs });
  const reply: CanaryReply = { via: 'process', exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr };
  return verdictOf(agent, 'scripts', door.file, [run.timedOut ? timedOut(agent, reply, timeoutMs) : agent.canary.blocks(reply)]);
}


// ---------------------------------------------------------------------------------------------------------------
// A plugin module (OpenCode)

async function pluginDoor(agent: AgentAdapter, door: Extract<AgentAdapter['canary']['door'], { kind: 'plugin' }>, call: CanaryCall, ports: DoctorPorts, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DoorResult> {
  const hookFile = door.file ?? agent.hookFiles;
  const read = await readHookFile(call.workspace, hookFile);
  if (read.state === 'missing') return notInstalled(agent, hookFile);
  if (read.state === 'unreadable') return broken(agent, 'plugin', hookFile, read.detail);
  if (!door.isOurs(read.text)) return notInstalled(agent, hookFile);
  const payload = agent.canary.payload(call);
  const outcome = await ports.plugin({ file: join(call.workspace, ...hookFile.split('/')), hook: door.hook, input: payload.input, output: payload.output, directory: call.workspace, env, timeoutMs });
  if (!outcome.ok) return broken(agent, 'plugin', hookFile, `${agent.label} could not run our plugin's ${door.hook}: ${firstLine(outcome.message)}`);
  return verdictOf(agent, 'plugin', hookFile, [agent.canary.blocks({ via: 'plugin', threw: outcome.threw, message: outcome.message })]);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
