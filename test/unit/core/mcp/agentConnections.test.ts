import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { agentConnection, mergeAgentConfig, type AgentConnection } from '../../../../src/core/mcp/agentConnections';
import { bundledScript } from '../../../support/bundledScript';

const endpoint = { url: 'http://127.0.0.1:41234/mcp', token: 'tok_abc' };

describe('agent connections', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ig-agents-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const places = () => ({ home: join(dir, 'home'), globalStorageRoot: join(dir, 'globalStorage') });
  const fileConnection = (agent: 'cursor' | 'cline' | 'roo-code') => agentConnection(agent, endpoint, places()) as Extract<AgentConnection, { kind: 'file' }>;

  it('Claude Code gets a user-scope command with the bearer header', () => {
    const connection = agentConnection('claude-code', endpoint, places());
    assert.equal(connection.kind, 'command');
    assert.match(connection.kind === 'command' ? connection.command : '', /^claude mcp add --scope user --transport http intent-governor http:\/\/127\.0\.0\.1:41234\/mcp --header "Authorization: Bearer tok_abc"$/);
  });

  it('any other MCP client gets the URL and the header to paste; a terminal agent gets a governor mcp line that runs', async () => {
    const other = agentConnection('other-mcp', endpoint, places());
    assert.equal(other.kind === 'copy' && other.text, 'URL: http://127.0.0.1:41234/mcp\nHeader: Authorization: Bearer tok_abc');
    const workspaceRoot = join(dir, 'my project');
    await mkdir(workspaceRoot);
    const cliPath = bundledScript(join(__dirname, '../../../../src/cli/main.ts'), 'cli.js');
    const stdio = agentConnection('stdio', endpoint, { ...places(), stdio: { cliPath, workspaceRoot } });
    assert.equal(stdio.kind, 'copy');
    const line = stdio.kind === 'copy' ? stdio.text : '';
    assert.equal(line, `node ${JSON.stringify(cliPath)} mcp --workspace ${JSON.stringify(workspaceRoot)}`);
    const help = spawnSync('bash', ['-c', `${line} --help`], { encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^governor mcp/);
  });

  it('every config file lives outside the repository, in the user home or editor storage', () => {
    for (const agent of ['cursor', 'cline', 'roo-code'] as const) {
      const connection = fileConnection(agent);
      assert.ok(connection.file.startsWith(dir), connection.file);
    }
    assert.match(fileConnection('cursor').file, /home\/\.cursor\/mcp\.json$/);
    assert.match(fileConnection('cline').file, /saoudrizwan\.claude-dev\/settings\/cline_mcp_settings\.json$/);
    assert.match(fileConnection('roo-code').file, /rooveterinaryinc\.roo-cline\/settings\/mcp_settings\.json$/);
  });

  it("merging keeps the user's other servers and keys, and the file is private", async () => {
    const connection = fileConnection('cursor');
    await mkdir(dirname(connection.file), { recursive: true });
    await writeFile(connection.file, JSON.stringify({ theme: 'dark', mcpServers: { other: { command: 'x' }, 'intent-governor': { url: 'old' } } }));
    assert.deepEqual(await mergeAgentConfig(connection), { ok: true });
    const written = JSON.parse(await readFile(connection.file, 'utf8'));
    assert.equal(written.theme, 'dark');
    assert.deepEqual(written.mcpServers.other, { command: 'x' });
    assert.deepEqual(written.mcpServers['intent-governor'], { url: endpoint.url, headers: { Authorization: 'Bearer tok_abc' } });
    assert.equal((await stat(connection.file)).mode & 0o777, 0o600);
  });

  it('creates the file when missing, with each agent dialect', async () => {
    for (const [agent, type] of [['cline', 'streamableHttp'], ['roo-code', 'streamable-http']] as const) {
      const connection = fileConnection(agent);
      assert.deepEqual(await mergeAgentConfig(connection), { ok: true });
      const written = JSON.parse(await readFile(connection.file, 'utf8'));
      assert.equal(written.mcpServers['intent-governor'].type, type);
      assert.equal(written.mcpServers['intent-governor'].url, endpoint.url);
    }
  });

  it('never overwrites a file it cannot parse', async () => {
    const connection = fileConnection('cursor');
    await mkdir(dirname(connection.file), { recursive: true });
    await writeFile(connection.file, '{ broken');
    const result = await mergeAgentConfig(connection);
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.message, /not valid JSON/);
    assert.equal(await readFile(connection.file, 'utf8'), '{ broken');
  });
});
