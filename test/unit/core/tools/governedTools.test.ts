import { strict as assert } from 'node:assert';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { codeOf, createHarness, type Harness } from '../../../support/governorHarness';
import { noSandbox, sandboxOrSkip } from '../../../support/sandboxes';

const LOGIN = 'export function login(user: string) {\n  return user.length > 0;\n}\n';

describe('governed tools', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/login.ts': LOGIN, 'src/other/a.ts': 'a\n', 'README.md': '# sample\n' } });
  });
  afterEach(() => h.dispose());

  const onDisk = (rel: string) => readFile(join(h.root, rel), 'utf8');

  it('list_intents shows every intent with status and scope', async () => {
    const result = await h.call('list_intents', {});
    assert.ok(result.ok);
    assert.match(result.output.text, /auth-refactor \[IN_PROGRESS\] Refactor authentication; scope: src\/auth\/\*\*, test\/auth\/\*\*/);
    assert.match(result.output.text, /docs \[PLANNED\]/);
  });

  it('select_active_intent returns the constraints, criteria and scope for the model', async () => {
    const result = await h.call('select_active_intent', { intent_id: 'auth-refactor' });
    assert.ok(result.ok);
    for (const text of ['Keep the public login() signature', 'All auth tests pass', 'src/auth/**']) assert.ok(result.output.text.includes(text), text);
  });

  it('select_active_intent refuses unknown and inactive intents with their codes', async () => {
    assert.equal(codeOf(await h.call('select_active_intent', { intent_id: 'nope' })), 'INTENT_NOT_FOUND');
    assert.equal(codeOf(await h.call('select_active_intent', { intent_id: 'docs' })), 'INTENT_NOT_ACTIVE');
  });

  it('read_file returns the text and its sha256 content hash', async () => {
    const result = await h.call('read_file', { path: 'src/auth/login.ts' });
    assert.ok(result.ok);
    assert.equal(result.output.data.content, LOGIN);
    assert.match(String(result.output.data.content_hash), /^sha256:[0-9a-f]{64}$/);
  });

  it('list_files lists a directory, recursively on request', async () => {
    const top = await h.call('list_files', {});
    assert.ok(top.ok);
    assert.deepEqual(top.output.data.files, ['README.md']);
    const all = await h.call('list_files', { path: 'src', recursive: true });
    assert.ok(all.ok);
    assert.deepEqual(all.output.data.files, ['src/auth/login.ts', 'src/other/a.ts']);
  });

  it('a write needs a bound intent first', async () => {
    assert.equal(codeOf(await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' })), 'NO_ACTIVE_INTENT');
  });

  it("the intent a human picked applies to sessions that chose none, and a session's own choice wins", async () => {
    h.governor.services.sessions.setDefaultIntent('auth-refactor');
    assert.equal(codeOf(await h.call('write_file', { path: 'src/auth/new.ts', content: 'x' }, 'agent-a')), 'ok');
    assert.equal(h.trace.mutations[0].intent_id, 'auth-refactor');
    assert.equal(codeOf(await h.call('select_active_intent', { intent_id: 'docs' }, 'agent-b')), 'INTENT_NOT_ACTIVE');
    h.governor.services.sessions.bindIntent('agent-b', 'docs');
    assert.equal(codeOf(await h.call('write_file', { path: 'src/auth/other.ts', content: 'x' }, 'agent-b')), 'INTENT_NOT_ACTIVE');
  });

  it('write_file creates a new file inside the scope and traces it', async () => {
    const result = await h.bound('write_file', { path: 'src/auth/token.ts', content: 'export const t = 1;\n' });
    assert.equal(codeOf(result), 'ok');
    assert.equal(await onDisk('src/auth/token.ts'), 'export const t = 1;\n');
    const [event] = h.trace.mutations;
    assert.equal(event.intent_id, 'auth-refactor');
    assert.equal(event.mutation_class, 'write');
    assert.deepEqual(event.files, [{ path: 'src/auth/token.ts', before: undefined, after: 'export const t = 1;\n' }]);
    assert.equal(event.agent.model_id, 'test-model');
  });

  it('overwriting an existing file needs its hash: PRECONDITION_REQUIRED, then ok after read_file', async () => {
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/auth/login.ts', content: 'x' })), 'PRECONDITION_REQUIRED');
    assert.equal(codeOf(await h.call('read_file', { path: 'src/auth/login.ts' })), 'ok');
    assert.equal(codeOf(await h.call('write_file', { path: 'src/auth/login.ts', content: 'x' })), 'ok');
    assert.equal(await onDisk('src/auth/login.ts'), 'x');
  });

  it('a human saving in between makes the write STALE_FILE with a diff of their change', async () => {
    const read = await h.bound('read_file', { path: 'src/auth/login.ts' });
    assert.ok(read.ok);
    await h.file('src/auth/login.ts', LOGIN.replace('> 0', '> 3'));
    const result = await h.call('write_file', { path: 'src/auth/login.ts', content: 'mine', expected_content_hash: read.output.data.content_hash });
    assert.equal(codeOf(result), 'STALE_FILE');
    assert.ok(!result.ok);
    assert.match(String(result.error.meta?.diff), /\+ {2}return user.length > 3;/);
    assert.match(String(result.error.meta?.current_content_hash), /^sha256:/);
    assert.equal(await onDisk('src/auth/login.ts'), LOGIN.replace('> 0', '> 3'));
    assert.equal(h.trace.governance.at(-1)?.code, 'STALE_FILE');
  });

  it('a file with unsaved edits in an editor is a conflict, never overwritten', async () => {
    const workspace = h.governor.services.workspace;
    workspace.hasUnsavedChanges = async (abs) => abs.endsWith('/src/auth/login.ts');
    await h.bound('read_file', { path: 'src/auth/login.ts' });
    const result = await h.call('write_file', { path: 'src/auth/login.ts', content: 'agent' });
    assert.equal(codeOf(result), 'STALE_FILE');
    assert.equal(result.ok ? '' : result.error.meta?.reason, 'unsaved_editor');
    assert.equal(await onDisk('src/auth/login.ts'), LOGIN);
  });

  it('edit_file applies exact search/replace blocks and the session may edit again without re-reading', async () => {
    await h.bound('read_file', { path: 'src/auth/login.ts' });
    const first = await h.call('edit_file', { path: 'src/auth/login.ts', edits: [{ search: 'user.length > 0', replace: 'user.trim().length > 0' }] });
    assert.equal(codeOf(first), 'ok');
    const second = await h.call('edit_file', { path: 'src/auth/login.ts', edits: [{ search: 'user: string', replace: 'user: string, _opts?: object' }] });
    assert.equal(codeOf(second), 'ok');
    assert.equal(await onDisk('src/auth/login.ts'), 'export function login(user: string, _opts?: object) {\n  return user.trim().length > 0;\n}\n');
    assert.deepEqual(h.trace.mutations.map((m) => m.mutation_class), ['edit', 'edit']);
  });

  it('edit_file refuses a missing or ambiguous search, naming the edit', async () => {
    await h.bound('read_file', { path: 'src/auth/login.ts' });
    const missing = await h.call('edit_file', { path: 'src/auth/login.ts', edits: [{ search: 'nope', replace: 'x' }] });
    assert.equal(codeOf(missing), 'INVALID_INPUT');
    assert.equal(missing.ok ? '' : missing.error.meta?.field, 'edits[0].search');
    const ambiguous = await h.call('edit_file', { path: 'src/auth/login.ts', edits: [{ search: 'user', replace: 'u' }] });
    assert.match(ambiguous.ok ? '' : ambiguous.error.message, /more than once/);
    assert.equal(await onDisk('src/auth/login.ts'), LOGIN);
  });

  it('delete_file asks a human: Reject leaves the file, Approve deletes it; both are traced', async () => {
    await h.bound('read_file', { path: 'src/auth/login.ts' });
    h.approver.script(false, true);
    assert.equal(codeOf(await h.call('delete_file', { path: 'src/auth/login.ts' })), 'HITL_REJECT');
    assert.equal(await onDisk('src/auth/login.ts'), LOGIN);
    assert.equal(h.trace.governance.at(-1)?.decision, 'reject');
    const request = h.approver.requests[0];
    assert.equal(request.risk, 'high');
    assert.deepEqual(request.files, ['src/auth/login.ts']);
    assert.match(String(request.diff), /-export function login/);
    assert.equal(codeOf(await h.call('delete_file', { path: 'src/auth/login.ts' })), 'ok');
    await assert.rejects(stat(join(h.root, 'src/auth/login.ts')));
    assert.equal(h.trace.mutations.at(-1)?.decision, 'approved');
    assert.equal(h.trace.mutations.at(-1)?.approver, 'test-human');
  });

  it('with approval every-change, every write asks first', async () => {
    const strict = await createHarness({ policy: { approval: 'every-change' } });
    try {
      strict.approver.script(true);
      assert.equal(codeOf(await strict.bound('write_file', { path: 'src/auth/a.ts', content: 'a' })), 'ok');
      assert.equal(strict.approver.requests[0].mutation_class, 'write');
      assert.match(String(strict.approver.requests[0].diff), /\+a/);
    } finally {
      await strict.dispose();
    }
  });

  it('run_command runs safe commands at once and reports output and exit code', async () => {
    const result = await h.bound('run_command', { command: 'ls src && echo done' });
    assert.ok(result.ok);
    assert.match(String(result.output.data.stdout), /auth\nother\ndone/);
    assert.equal(result.output.data.exit_code, 0);
  });

  it('run_command without a sandbox asks before a redirect and traces the files it was known to change', async () => {
    const textOnly = await createHarness({ files: { 'src/auth/a.ts': 'a\n' }, sandbox: noSandbox });
    try {
      textOnly.approver.script(true);
      const result = await textOnly.bound('run_command', { command: 'echo hi > src/auth/out.txt' });
      assert.equal(codeOf(result), 'ok');
      assert.equal(await readFile(join(textOnly.root, 'src/auth/out.txt'), 'utf8'), 'hi\n');
      assert.equal(textOnly.approver.requests[0].command, 'echo hi > src/auth/out.txt');
      assert.equal(textOnly.approver.requests[0].intent_id, 'auth-refactor');
      assert.match(textOnly.approver.requests[0].reasons.join(' '), /No sandbox can start here/);
      assert.deepEqual(textOnly.trace.mutations[0].files, [{ path: 'src/auth/out.txt', before: undefined, after: 'hi\n' }]);
    } finally {
      await textOnly.dispose();
    }
  });

  it('run_command in the sandbox runs an in-scope redirect without asking and traces the file', async function () {
    await sandboxOrSkip(this);
    const result = await h.bound('run_command', { command: 'echo hi > src/auth/out.txt' });
    assert.equal(codeOf(result), 'ok');
    assert.equal(await onDisk('src/auth/out.txt'), 'hi\n');
    assert.equal(h.approver.requests.length, 0);
    assert.deepEqual(h.trace.mutations[0].files, [{ path: 'src/auth/out.txt', before: undefined, after: 'hi\n' }]);
  });

  it('run_command refuses denied commands and redirects out of scope without asking', async () => {
    assert.equal(codeOf(await h.bound('run_command', { command: 'sudo rm -rf /' })), 'COMMAND_DENIED');
    assert.equal(codeOf(await h.call('run_command', { command: 'echo x > src/other/a.ts' })), 'SCOPE_VIOLATION');
    assert.equal(h.approver.requests.length, 0);
    assert.equal(await onDisk('src/other/a.ts'), 'a\n');
  });

  it('run_command kills a command at its timeout', async () => {
    const result = await h.bound('run_command', { command: 'sleep 30', timeout_ms: 300 });
    assert.ok(result.ok);
    assert.equal(result.output.data.timed_out, true);
  });

  it('request_scope_expansion asks, and on approval writes the glob into the intents file keeping comments', async () => {
    assert.equal(codeOf(await h.bound('write_file', { path: 'src/other/b.ts', content: 'b' })), 'SCOPE_VIOLATION');
    h.approver.script(true);
    const expansion = await h.call('request_scope_expansion', { globs: ['src/other/**'], reason: 'login needs the shared helpers' });
    assert.equal(codeOf(expansion), 'ok');
    const request = h.approver.requests[0];
    assert.equal(request.kind, 'scope_expansion');
    assert.deepEqual(request.globs, ['src/other/**']);
    assert.equal(request.agent_reason, 'login needs the shared helpers');
    const yaml = await onDisk('.orchestration/active_intents.yaml');
    assert.match(yaml, /# The plan for the sample project/);
    assert.match(yaml, /- src\/other\/\*\*/);
    assert.equal(codeOf(await h.call('write_file', { path: 'src/other/b.ts', content: 'b' })), 'ok');
  });

  it('a rejected scope expansion leaves the intents file untouched', async () => {
    const before = await onDisk('.orchestration/active_intents.yaml');
    h.approver.script(false);
    assert.equal(codeOf(await h.bound('request_scope_expansion', { globs: ['src/other/**'], reason: 'r' })), 'HITL_REJECT');
    assert.equal(await onDisk('.orchestration/active_intents.yaml'), before);
  });

  it('input that fails its schema is INVALID_INPUT naming the field', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['read_file', {}, 'path'],
      ['write_file', { path: 'src/auth/a.ts', content: 5 }, 'content'],
      ['edit_file', { path: 'src/auth/a.ts', edits: [{ search: 'a' }] }, 'edits[0].replace'],
      ['write_file', { path: 'src/auth/a.ts', content: '', expected_content_hash: 'md5:1' }, 'expected_content_hash'],
      ['read_file', { path: 'a', extra: 1 }, 'extra'],
    ];
    for (const [tool, input, field] of cases) {
      const result = await h.call(tool, input);
      assert.equal(codeOf(result), 'INVALID_INPUT', tool);
      assert.equal(result.ok ? '' : result.error.meta?.field, field, `${tool} ${JSON.stringify(input)}`);
    }
    assert.match((await h.call('frobnicate', {})).ok ? '' : 'INVALID_INPUT', /INVALID_INPUT/);
  });
});
