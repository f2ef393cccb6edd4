import { runProcess } from '../../process/processRunner';
import type { DoctorPorts, McpToolOutcome, McpToolRequest, PluginOutcome, PluginRequest, ProcessOutcome, RunRequest } from './doctorPorts';
import { stderrGist } from './stderrGist';

/** Output beyond this is cut (and the process group ended): a hook's answer is one line. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

async function run(file: string, args: string[], request: RunRequest): Promise<ProcessOutcome> {
  const result = await runProcess(file, args, { cwd: request.cwd, env: request.env, stdin: request.stdin, timeoutMs: request.timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, timedOut: result.timedOut };
}

/**
 * Loads the plugin module in a Node process of its own (a plugin that hangs or exits is ended with it, and nothing
 * of the workspace's code runs in the caller), calls every exported plugin with the project directory, and runs the
 * named hook of each with the call. One JSON line back: whether a hook threw. A `.js` module with ESM syntax outside
 * a `"type": "module"` package loads as OpenCode (Bun) loads it: Node 20.19+ detects the syntax; an older Node
 * gets the file's text as a module instead.
 */
const PLUGIN_RUNNER = `
const [file, hook, json] = process.argv.slice(1);
const { pathToFileURL } = await import('node:url');
const { readFileSync } = await import('node:fs');
const text = (error) => String(error?.message ?? error);
async function main() {
  let mod;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (error) {
    try {
      mod = await import('data:text/javascript;base64,' + readFileSync(file).toString('base64'));
    } catch {
      return { ok: false, message: 'the module does not load: ' + text(error) };
    }
  }
  const { input, output, directory } = JSON.parse(json);
  let ran = 0;
  let threw;
  for (const plugin of Object.values(mod).filter((value) => typeof value === 'function')) {
    let hooks;
    try {
      hooks = await plugin({ directory, worktree: directory, project: { id: 'intent-governor-doctor', worktree: directory } });
    } catch (error) {
      return { ok: false, message: 'the plugin failed to start: ' + text(error) };
    }
    const fn = hooks?.[hook];
    if (typeof fn !== 'function') continue;
    ran += 1;
    try {
      await fn(input, output);
    } catch (error) {
      threw ??= text(error);
    }
  }
  if (ran === 0) return { ok: false, message: 'no exported plugin has a ' + hook + ' hook' };
  return threw === undefined ? { ok: true, threw: false, message: '' } : { ok: true, threw: true, message: threw };
}
const answer = await main().catch((error) => ({ ok: false, message: text(error) }));
process.stdout.write(JSON.stringify(answer) + '\\n', () => process.exit(0));
`;

async function plugin(request: PluginRequest): Promise<PluginOutcome> {
  // In VS Code's extension host process.execPath is the editor itself; the plugin's own hook process needs node on PATH anyway.
  const node = process.versions.electron ? 'node' : process.execPath;
  const args = ['--input-type=module', '--no-warnings', '-e', PLUGIN_RUNNER, request.file, request.hook, JSON.stringify({ input: request.input, output: request.output, directory: request.directory })];
  const result = await runProcess(node, args, { cwd: request.directory, env: request.env, timeoutMs: request.timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES });
  if (result.timedOut) return { ok: false, message: `the plugin did not finish within ${Math.round(request.timeoutMs / 1000)} s` };
  const line = result.stdout.trim().split('\n').pop() ?? '';
  try {
    const answer = JSON.parse(line) as { ok?: boolean; threw?: boolean; message?: string };
    if (answer.ok === true) return { ok: true, threw: answer.threw === true, message: answer.message ?? '' };
    return { ok: false, message: answer.message ?? 'no answer' };
  } catch {
    return { ok: false, message: `the plugin runner ended (${result.exitCode ?? 'killed'}) without an answer${result.stderr.trim() ? `: ${result.stderr.trim()}` : ''}` };
  }
}

/** Starts the server as the agent would (stdio), calls one tool, and stops it: a real MCP client, the SDK's. */
async function mcpTool(request: McpToolRequest): Promise<McpToolOutcome> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const env = Object.fromEntries(Object.entries(request.env).filter((pair): pair is [string, string] => typeof pair[1] === 'string'));
  const transport = new StdioClientTransport({ command: request.command, args: request.args, cwd: request.cwd, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'intent-governor-doctor', version: '1.0.0' });
  const said = (message: string) => `${message}${stderr.trim() ? ` (its stderr: ${stderrGist(stderr)})` : ''}`;
  const deadline = AbortSignal.timeout(request.timeoutMs);
  try {
    try {
      await client.connect(transport, { signal: deadline, timeout: request.timeoutMs });
    } catch (error) {
      return { ok: false, stage: 'start', message: said(messageOf(error)) };
    }
    try {
      const { tools } = await client.listTools(undefined, { signal: deadline, timeout: request.timeoutMs });
      if (!tools.some((tool) => tool.name === request.tool)) return { ok: false, stage: 'tool', message: `it offers ${tools.map((tool) => tool.name).join(', ') || 'no tools'}` };
      const result = await client.callTool({ name: request.tool, arguments: request.arguments }, undefined, { signal: deadline, timeout: request.timeoutMs });
      const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
      return { ok: true, text: content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('\n'), isError: result.isError === true };
    } catch (error) {
      return { ok: false, stage: 'call', message: said(messageOf(error)) };
    }
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function version(binary: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ found: false } | { found: true; text: string }> {
  const result = await runProcess(binary, ['--version'], { cwd: process.cwd(), env, timeoutMs, maxOutputBytes: 64 * 1024 });
  if (result.exitCode === null && !result.timedOut && /ENOENT|EACCES/u.test(result.stderr)) return { found: false };
  const line = (result.stdout.trim() || result.stderr.trim()).split('\n')[0]?.trim().slice(0, 80) ?? '';
  if (result.timedOut) return { found: true, text: `unknown (\`${binary} --version\` did not answer within ${Math.round(timeoutMs / 1000)} s)` };
  if (result.exitCode !== 0) return { found: true, text: `unknown (\`${binary} --version\` exited ${result.exitCode ?? 'killed'}${line ? `: ${line}` : ''})` };
  return { found: true, text: line || 'unknown' };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The doctor's ports on this machine. */
export const nodeDoctorPorts: DoctorPorts = { run, plugin, mcpTool, version };
