import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import { readDiscoveryFiles } from '../../../src/core/mcp/discoveryFile';
import type { IntentGovernorApi } from '../../../src/host/extensionApi';
import { activateGovernor, EXTENSION_ID, waitFor, workspaceUri } from './extensionUnderTest';

const CLAUDE_SESSION = 'suite-agent-sessions';

function errorCode(result: unknown): string {
  const r = result as CallToolResult;
  if (!r.isError) return 'ok';
  const first = r.content[0];
  return (JSON.parse(first?.type === 'text' ? first.text : '{}') as { code: string }).code;
}

/** Claude Code's command hook as Install Agent Hooks writes it: the installed dist/hook.js, answered by this extension. */
function claudeHook(event: 'PreToolUse' | 'SessionEnd', fields: Record<string, unknown>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension);
  const child = spawn(process.execPath, [join(extension.extensionPath, 'dist', 'hook.js'), 'hook', 'claude', '--timeout-ms', '60000'], { env: { ...process.env, INTENT_GOVERNOR_INTENT: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(JSON.stringify({ session_id: CLAUDE_SESSION, transcript_path: '/tmp/t.jsonl', cwd: workspaceUri().fsPath, permission_mode: 'default', hook_event_name: event, ...fields }));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('Agent Sessions in VS Code: two live agents from two doors', () => {
  let api: IntentGovernorApi;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  before(async () => {
    api = await activateGovernor();
    const url = api.mcpUrl();
    assert.ok(url, 'the MCP server did not start');
    const server = (await readDiscoveryFiles()).find((entry) => entry.url === url);
    assert.ok(server, `no discovery file for ${url}`);
    transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } });
    client = new Client({ name: 'suite-mcp-agent', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    // Leave no live session behind: later suites read the status bar.
    await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
    await claudeHook('SessionEnd', { reason: 'exit' });
    await vscode.commands.executeCommand('intentGovernor.clearIntent');
    await waitFor('the status bar to count no agents', () => api.statusText() === '$(shield) no intent', 10_000);
  });

  it("the status bar names an MCP agent's intent while the human has none, then counts both agents", async () => {
    await vscode.commands.executeCommand('intentGovernor.clearIntent');
    assert.equal(errorCode(await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), 'ok');
    await waitFor('the agent and its intent in the status bar', () => api.statusText() === '$(shield) no intent · 1 agent on auth-refactor');

    assert.equal(await vscode.commands.executeCommand('intentGovernor.selectIntent', 'auth-refactor'), 'auth-refactor');
    const read = await claudeHook('PreToolUse', { tool_name: 'Read', tool_input: { file_path: workspaceUri('src/auth/login.ts').fsPath }, tool_use_id: 'toolu_suite_read' });
    assert.equal(read.code, 0, read.stderr);
    await waitFor('two agents in the status bar', () => api.statusText() === '$(shield) auth-refactor · 2 agents');
  });

  it("Unbind Intent: the session's next write is NO_ACTIVE_INTENT, though the human's intent is set", async () => {
    assert.ok(transport.sessionId);
    assert.equal(await vscode.commands.executeCommand('intentGovernor.sessions.unbindIntent', `mcp-http:${transport.sessionId}`), true);
    assert.equal(errorCode(await client.callTool({ name: 'write_file', arguments: { path: 'src/auth/after-unbind.ts', content: 'x\n' } })), 'NO_ACTIVE_INTENT');
    // Selecting an intent again binds it again.
    assert.equal(errorCode(await client.callTool({ name: 'select_active_intent', arguments: { intent_id: 'auth-refactor' } })), 'ok');
  });

  it('End Session forgets the session: it leaves the count, and its next change needs a fresh read', async () => {
    assert.equal(await vscode.commands.executeCommand('intentGovernor.sessions.endSession', `claude:${CLAUDE_SESSION}`), true);
    await waitFor('one agent left in the status bar', () => api.statusText() === '$(shield) auth-refactor · 1 agent');

    assert.equal(errorCode(await client.callTool({ name: 'read_file', arguments: { path: 'src/auth/login.ts' } })), 'ok');
    assert.equal(await vscode.commands.executeCommand('intentGovernor.sessions.endSession', `mcp-http:${transport.sessionId}`), true);
    const edit = { path: 'src/auth/login.ts', edits: [{ search: 'login', replace: 'signIn' }] };
    assert.equal(errorCode(await client.callTool({ name: 'edit_file', arguments: edit })), 'PRECONDITION_REQUIRED', 'the read was forgotten with the session');
  });
});
