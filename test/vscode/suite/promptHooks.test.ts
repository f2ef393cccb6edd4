import * as assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { FileHookApprovals } from '../../../src/core/userHooks/hookApprovals';
import { loadHookLayers } from '../../../src/core/userHooks/hookLayers';
import { governorHome } from '../../../src/core/paths/governorHome';
import { LanguageModelHookExecutor } from '../../../src/host/agents/languageModelHookExecutor';
import { vscodeLanguageModels } from '../../../src/host/tools/vscodeLanguageModels';
import type { HookSpec } from '../../../src/core/userHooks/hookSpec';
import { activateGovernor, invokeGovernedTool, parseToolError, waitFor, workspaceUri } from './extensionUnderTest';

/** What test/vscode/scripted-model's `activate` returns. */
interface ScriptedModel {
  vendor: string;
  model: { id: string; family: string };
  answer(...texts: string[]): void;
  requests(): { model: string; prompt: string; cancelled: boolean }[];
  hold(): void;
  release(): void;
  reset(): void;
}

const SCRIPTED_MODEL_ID = 'intent-governor-test.scripted-model';
const HOOKS_FILE = '.orchestration/hooks.json';
const PROMPT = 'Refuse the change if it writes a secret. The call: $ARGUMENTS';
const STATUS = 'Checking for secrets';

async function scriptedModel(): Promise<ScriptedModel> {
  const extension = vscode.extensions.getExtension<ScriptedModel>(SCRIPTED_MODEL_ID);
  assert.ok(extension, `${SCRIPTED_MODEL_ID} is not installed (test/vscode/runSuite.ts installs it)`);
  return extension.activate();
}

/** The project's hooks file as a user writes it: one PreToolUse prompt hook on write_file. */
async function writeHooks(hook: Record<string, unknown>): Promise<void> {
  const path = workspaceUri(HOOKS_FILE).fsPath;
  await mkdir(dirname(path), { recursive: true });
  const config = { hooks: { PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'prompt', prompt: PROMPT, statusMessage: STATUS, ...hook }] }] } };
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`);
}

/** What `governor hooks trust --yes` records: each project hook's approval hash, as the governor loads it. */
async function approveProjectHooks(): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(root);
  const loaded = loadHookLayers(root, { home: governorHome(), door: 'vscode-agent' });
  assert.deepEqual(loaded.problems, []);
  const project = loaded.hooks.filter((spec) => spec.source.layer === 'project');
  assert.equal(project.length, 1, 'the project hooks file holds one hook');
  for (const spec of project) await new FileHookApprovals().approve(root, spec.approvalHash, spec.name);
}

/** The executor on its own, as the host builds it, against the real vscode.lm. */
function runDirectly(input: string, timeoutMs: number) {
  const action = { type: 'prompt' as const, prompt: 'Judge $ARGUMENTS' };
  const spec = { name: 'direct', event: 'PreToolUse', source: { layer: 'project', file: HOOKS_FILE } } as HookSpec;
  return new LanguageModelHookExecutor(vscodeLanguageModels()).run(action, spec, { input, env: {}, cwd: '/', timeoutMs });
}

async function exists(rel: string): Promise<boolean> {
  return readFile(workspaceUri(rel).fsPath).then(
    () => true,
    () => false,
  );
}

describe('prompt hooks through a VS Code language model', () => {
  let model: ScriptedModel;

  before(async () => {
    model = await scriptedModel();
    await activateGovernor();
    assert.equal(await vscode.commands.executeCommand('intentGovernor.selectIntent', 'auth-refactor'), 'auth-refactor');
  });

  beforeEach(() => model.reset());

  after(async () => {
    model.reset();
    // Other suites share this workspace: the hook must not judge their writes.
    await rm(workspaceUri(HOOKS_FILE).fsPath, { force: true });
    await vscode.commands.executeCommand('intentGovernor.clearIntent');
  });

  it('VS Code offers the scripted model, and the executor gets its streamed answer with $ARGUMENTS replaced', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: model.vendor });
    assert.deepEqual(
      models.map((each) => each.id),
      [model.model.id],
    );
    model.answer('{"ok": true}');
    const execution = await runDirectly('{"tool_name":"write_file"}', 30_000);
    assert.equal(execution.kind, 'exited', JSON.stringify(execution));
    assert.equal(execution.kind === 'exited' && execution.stdout, '{"ok": true}');
    assert.deepEqual(model.requests(), [{ model: model.model.id, prompt: 'Judge {"tool_name":"write_file"}', cancelled: false }]);
  });

  it('a model that does not answer in time has its request cancelled in VS Code, not just abandoned', async () => {
    model.hold();
    const execution = await runDirectly('{}', 200);
    assert.equal(execution.kind === 'failed' && execution.message, 'the language model did not answer within 200 ms and the request was cancelled; raise the hook\'s "timeout" or name a faster "model"');
    await waitFor('the provider to see the cancellation', () => model.requests()[0]?.cancelled === true);
  });

  it('a model answering {"ok": false} refuses the write with its reason, and the file is not written', async () => {
    await writeHooks({});
    await approveProjectHooks();
    model.answer('{"ok": false, "reason": "no secrets"}');
    const path = 'src/auth/promptHookRefused.ts';
    const content = 'export const apiKey = "sk-live-1234";\n';

    const refusal = parseToolError(await invokeGovernedTool('write_file', { path, content }));
    assert.equal(refusal.code, 'HOOK_BLOCKED');
    assert.match(refusal.message, /no secrets/);
    assert.equal(await exists(path), false, 'the refused file was written');

    // The model saw the prompt with $ARGUMENTS replaced by the hook input JSON of this very call.
    const [request] = model.requests();
    assert.ok(request, 'the language model was never asked');
    const prefix = PROMPT.replace('$ARGUMENTS', '');
    assert.ok(request.prompt.startsWith(prefix), request.prompt);
    assert.ok(!request.prompt.includes('$ARGUMENTS'), request.prompt);
    const input = JSON.parse(request.prompt.slice(prefix.length)) as { hook_event_name: string; tool_input: Record<string, unknown> };
    assert.equal(input.hook_event_name, 'PreToolUse');
    assert.deepEqual({ path: input.tool_input.path, content: input.tool_input.content }, { path, content });
  });

  it('a model answering {"ok": true} lets the write land, and the statusMessage shows while it thinks', async () => {
    const api = await activateGovernor();
    await writeHooks({});
    await approveProjectHooks();
    model.hold();
    model.answer('{"ok": true}');
    const path = 'src/auth/promptHookAllowed.ts';
    const content = 'export const greeting = "hello";\n';

    const call = invokeGovernedTool('write_file', { path, content });
    await waitFor('the model to be asked', () => model.requests().length === 1, 30_000);
    assert.equal(api.hookStatusText(), `$(sync~spin) ${STATUS}`);
    model.release();
    const text = await call;

    assert.match(text, /^Created src\/auth\/promptHookAllowed\.ts/);
    assert.equal(await readFile(workspaceUri(path).fsPath, 'utf8'), content);
    assert.equal(api.hookStatusText(), '', 'the status stays after the hook ended');
  });

  it('a model that does not answer within the timeout is cancelled and the write refused (fail closed)', async () => {
    await writeHooks({ timeout: 1 });
    await approveProjectHooks();
    model.hold();
    const path = 'src/auth/promptHookTimedOut.ts';

    const refusal = parseToolError(await invokeGovernedTool('write_file', { path, content: 'x\n' }));
    assert.equal(refusal.code, 'HOOK_ERROR');
    assert.match(refusal.message, /did not answer within 1000 ms/);
    assert.equal(await exists(path), false);
    // The cancellation reached the provider: VS Code cancelled the request, it did not just stop waiting.
    await waitFor('the request to be cancelled', () => model.requests()[0]?.cancelled === true);
  });

  it('a hook naming a model VS Code does not have refuses the write and says which models there are', async () => {
    await writeHooks({ model: 'no-such-model' });
    await approveProjectHooks();
    const path = 'src/auth/promptHookNoModel.ts';

    const refusal = parseToolError(await invokeGovernedTool('write_file', { path, content: 'x\n' }));
    assert.equal(refusal.code, 'HOOK_ERROR');
    assert.match(refusal.message, /'no-such-model' named by the hook is not available in VS Code \(available: .*scripted-judge/);
    assert.equal(await exists(path), false);
    assert.equal(model.requests().length, 0);
  });
});
