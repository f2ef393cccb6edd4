import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOLS } from '../../../src/core/tools/toolRegistry';
import { lmToolContribution, lmToolName } from '../../../src/host/tools/lmToolManifest';

const repo = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));

/** Every `registerCommand('id'` in src/host, the only code that talks to VS Code. */
function registeredCommands(): string[] {
  const ids: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        for (const match of readFileSync(path, 'utf8').matchAll(/registerCommand\(\s*['"`]([^'"`]+)['"`]/g)) ids.push(match[1]);
      }
    }
  };
  walk(join(repo, 'src', 'host'));
  return ids;
}

describe('package.json manifest', () => {
  const contributed: string[] = (manifest.contributes?.commands ?? []).map((c: { command: string }) => c.command);
  const registered = registeredCommands();

  it('registers every contributed command', () => {
    assert.deepEqual(contributed.filter((id) => !registered.includes(id)), [], 'contributed in package.json but never registered in src/host');
  });

  it('contributes every registered command', () => {
    assert.deepEqual(registered.filter((id) => !contributed.includes(id)), [], 'registered in src/host but missing from contributes.commands');
  });

  it('registers each command once and gives every command the Intent Governor category', () => {
    assert.equal(new Set(registered).size, registered.length, `a command is registered twice: ${registered.join(', ')}`);
    for (const command of manifest.contributes.commands) assert.equal(command.category, 'Intent Governor', command.command);
  });

  it('contributes exactly the governed tools as language model tools, with identical input schemas (npm run sync:manifest)', () => {
    const tools: { name: string; inputSchema: unknown }[] = manifest.contributes?.languageModelTools ?? [];
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(TOOLS).map((t) => lmToolName(t.name)).sort());
    for (const definition of Object.values(TOOLS)) {
      const entry = tools.find((t) => t.name === lmToolName(definition.name));
      assert.deepEqual(entry?.inputSchema, definition.inputSchema, `${definition.name}: inputSchema differs from the core schema`);
      assert.deepEqual(entry, lmToolContribution(definition), `${definition.name}: entry is stale; run npm run sync:manifest`);
    }
  });

  it('names tools and references the way VS Code accepts them', () => {
    for (const tool of manifest.contributes.languageModelTools) {
      assert.match(tool.name, /^[\w-]+$/);
      assert.ok(!/^(copilot|vscode)_/.test(tool.name), tool.name);
      assert.ok(tool.displayName && tool.modelDescription, tool.name);
      assert.ok(tool.canBeReferencedInPrompt === true && typeof tool.toolReferenceName === 'string', tool.name);
    }
  });

  it('activates on the intents file, after startup and to restore the trace inspector, and supports untrusted workspaces in a limited way', () => {
    assert.deepEqual(manifest.activationEvents, ['workspaceContains:.orchestration/active_intents.yaml', 'onStartupFinished', 'onWebviewPanel:intentGovernor.inspector']);
    assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited');
    assert.ok(manifest.capabilities.untrustedWorkspaces.description);
    assert.equal(manifest.contributes.configuration.properties['intentGovernor.approveWrites'].default, false);
    assert.ok(manifest.contributes.configuration.properties['intentGovernor.approveWrites'].markdownDeprecationMessage, 'approveWrites says it is deprecated');
    assert.equal(manifest.contributes.configuration.properties['intentGovernor.approval'].default, 'every-change');
    assert.deepEqual(manifest.contributes.configuration.properties['intentGovernor.approval'].enum, ['every-change', 'destructive-only']);
  });
});
