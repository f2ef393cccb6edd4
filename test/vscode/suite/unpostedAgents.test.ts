import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { residentEndpointPid } from '../../../src/core/bridge/residentEndpoint';
import { traceRecordsFor } from '../../agents/agentWorkspace';
import { provisionedCline, runCline } from '../../agents/clineDriver';
import { provisionedGemini, runGemini } from '../../agents/geminiDriver';
import { startScriptedGemini, type ScriptStep as GeminiStep } from '../../support/scriptedGemini';
import { startScriptedOpenAI, type ScriptStep as OpenAIStep } from '../../support/scriptedOpenAI';
import { activateGovernor, waitFor, workspaceUri } from './extensionUnderTest';

/**
 * The real Gemini CLI and Cline, governed by this extension through the hooks Install Agent Hooks writes: neither
 * sends a post for its writes (Gemini CLI's write_file and replace, any tool of Cline's), so the extension, which
 * answered the pre, records each change itself, and judges the agent's next edit of the file against it.
 */
describe('Agents whose writes send no post, governed by VS Code', function () {
  this.timeout(300_000);
  let gemini: string;
  let cline: string;
  let temp: string;
  const ws = () => workspaceUri('.').fsPath.replace(/\/$/u, '');
  // The hook launcher the install wrote, and the anchors: the extension's own (runSuite.ts sets both).
  const governorEnv = () => ({ INTENT_GOVERNOR_HOME: process.env.INTENT_GOVERNOR_HOME ?? '', INTENT_GOVERNOR_ANCHOR_DIR: process.env.INTENT_GOVERNOR_ANCHOR_DIR ?? '' });
  const recordsFor = (path: string) => traceRecordsFor(ws(), path);
  /** The file's records once `count` are there and a moment has passed (a doubled record would show by then). */
  const settledRecords = async (path: string, count: number) => {
    await waitFor(`${count} records of ${path}`, () => recordsFor(path).length >= count, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    return recordsFor(path);
  };

  before(async function () {
    this.timeout(900_000);
    await activateGovernor();
    gemini = provisionedGemini();
    cline = provisionedCline();
    temp = mkdtempSync(join(tmpdir(), 'ig-vscode-agents-'));
    await vscode.commands.executeCommand('intentGovernor.installHooks', ['gemini', 'cline']);
    // In VS Code the person picks the intent the agents work under.
    assert.equal(await vscode.commands.executeCommand('intentGovernor.selectIntent', 'auth-refactor'), 'auth-refactor');
    assert.equal(residentEndpointPid(process.env.INTENT_GOVERNOR_HOME ?? '', ws()), process.pid, 'the hooks reach this extension host, not a resident of their own');
  });

  after(async () => {
    await vscode.commands.executeCommand('intentGovernor.installHooks', ['gemini', 'cline'], 'uninstall');
    await vscode.commands.executeCommand('intentGovernor.clearIntent');
    rmSync(temp, { recursive: true, force: true });
  });

  it("Gemini CLI: write_file and replace are recorded once, not as reconciled, and its next replace of the file it wrote is judged against that write (no STALE_FILE)", async () => {
    const settings = JSON.parse(readFileSync(workspaceUri('.gemini/settings.json').fsPath, 'utf8'));
    const afterTool = new RegExp(settings.hooks.AfterTool[0].matcher as string);
    assert.ok(!afterTool.test('write_file') && !afterTool.test('replace') && afterTool.test('read_file'), 'no AfterTool for write_file and replace');
    const file = join(ws(), 'src/auth/gemini-in-vscode.ts');
    const replace = (old_string: string, new_string: string): GeminiStep => ({ tool: 'replace', input: { file_path: file, instruction: 'Change it.', old_string, new_string } });
    const model = await startScriptedGemini([
      { tool: 'write_file', input: { file_path: file, content: 'export const g = 1;\n' } },
      replace('g = 1', 'g = 2'),
      replace('g = 2', 'g = 3'),
      replace('no such text', 'anything'), // refused at BeforeTool: nothing to record
      { text: 'done' },
    ]);
    try {
      const run = await runGemini({ binary: gemini, cwd: ws(), modelUrl: model.url, home: join(temp, 'gemini-home'), env: governorEnv() });
      assert.equal(model.remaining(), 0, `gemini stopped before playing the script: ${run.stdout}\n${run.stderr}`);
    } finally {
      await model.close();
    }
    const results = model.toolResults();
    assert.deepEqual(results.map((r) => r.is_error), [false, false, false, true], JSON.stringify(results));
    assert.doesNotMatch(JSON.stringify(results), /STALE_FILE/u);
    assert.match(results[3].text, /INVALID_INPUT/u);
    assert.equal(readFileSync(file, 'utf8'), 'export const g = 3;\n');
    const records = await settledRecords('src/auth/gemini-in-vscode.ts', 3);
    assert.equal(records.length, 3, 'one record per change, none for the refused replace');
    for (const record of records) {
      const metadata = record.metadata as Record<string, unknown>;
      assert.equal(metadata.agent, 'gemini-cli');
      assert.equal(metadata.intent_id, 'auth-refactor');
      assert.equal(metadata.reconciled, undefined, `recorded as its post would have been: ${JSON.stringify(metadata)}`);
    }
  });

  it('Cline: with no PostToolUse file, its create and its replace of that file are recorded once each, not as reconciled', async () => {
    assert.match(readFileSync(workspaceUri('.clinerules/hooks/PreToolUse.sh').fsPath, 'utf8'), /export INTENT_GOVERNOR_UNPOSTED='\*';/u);
    const file = join(ws(), 'src/auth/cline-in-vscode.ts');
    const script: OpenAIStep[] = [
      { tool: 'editor', input: { path: file, new_text: 'export const c = 1;\n' } },
      { tool: 'editor', input: { path: file, old_text: 'c = 1', new_text: 'c = 2' } },
      { text: 'done' },
    ];
    const model = await startScriptedOpenAI(script);
    try {
      const run = await runCline({ binary: cline, cwd: ws(), modelUrl: model.url, home: join(temp, 'cline-home'), env: governorEnv() });
      assert.equal(model.remaining(), 0, `cline stopped before playing the script: ${run.stdout}\n${run.stderr}`);
    } finally {
      await model.close();
    }
    assert.equal(readFileSync(file, 'utf8'), 'export const c = 2;\n', JSON.stringify(model.toolResults()));
    const records = await settledRecords('src/auth/cline-in-vscode.ts', 2);
    assert.equal(records.length, 2);
    for (const record of records) {
      const metadata = record.metadata as Record<string, unknown>;
      assert.equal(metadata.agent, 'cline');
      assert.equal(metadata.reconciled, undefined, `recorded as its post would have been: ${JSON.stringify(metadata)}`);
    }
  });
});
