import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { validatorSource } from '../../../../scripts/validatorSource';
import { validateInput } from '../../../../src/core/tools/inputValidation';
import { inputValidators } from '../../../../src/core/tools/inputValidators.generated';
import type { ToolDefinition } from '../../../../src/core/tools/toolDefinition';
import type { ToolName } from '../../../../src/core/tools/toolName';
import { TOOLS } from '../../../../src/core/tools/toolRegistry';

const generatedPath = join(__dirname, '..', '..', '..', '..', 'src', 'core', 'tools', 'inputValidators.generated.ts');

describe('precompiled input validators', () => {
  it('inputValidators.generated.ts is what the tool schemas generate (npm run sync:manifest)', () => {
    const expected = validatorSource(Object.values(TOOLS));
    const actual = readFileSync(generatedPath, 'utf8');
    assert.ok(actual === expected, 'src/core/tools/inputValidators.generated.ts is stale: run npm run sync:manifest');
  });

  it('has a validator for every registered tool', () => {
    assert.deepEqual(Object.keys(inputValidators).sort(), Object.keys(TOOLS).sort());
  });

  // The same verdicts and first errors as Ajv compiling the schema at run time, the way validation used to work.
  const runtime = new Ajv({ allErrors: false, strict: true });
  const samples: Partial<Record<ToolName, unknown[]>> = {
    list_intents: [{}, { extra: 1 }, null, [], 'x'],
    select_active_intent: [{ intent_id: 'a' }, { intent_id: '' }, { intent_id: 'x'.repeat(201) }, { intent_id: 3 }, {}],
    read_file: [{ path: 'a.ts' }, { path: '' }, { path: 'a.ts', other: true }, { path: '😀'.repeat(4096) }],
    write_file: [
      { path: 'a.ts', content: '' },
      { path: 'a.ts', content: 'x', expected_content_hash: `sha256:${'0'.repeat(64)}` },
      { path: 'a.ts', content: 'x', expected_content_hash: 'sha256:nope' },
      { path: 'a.ts' },
    ],
    edit_file: [
      { path: 'a.ts', edits: [{ search: 'a', replace: 'b' }] },
      { path: 'a.ts', edits: [] },
      { path: 'a.ts', edits: [{ search: 'a', replace: 'b' }, { search: '', replace: 'b' }] },
      { path: 'a.ts', edits: [{ search: 'a' }] },
      { path: 'a.ts', edits: [{ search: 'a', replace: 'b', why: 'c' }] },
    ],
    run_command: [{ command: 'ls' }, { command: 'ls', timeout_ms: 99 }, { command: 'ls', timeout_ms: 1.5 }, { command: 'ls', cwd: '' }],
    request_scope_expansion: [{ globs: ['src/**'], reason: 'r' }, { globs: [], reason: 'r' }, { globs: [''], reason: 'r' }, { globs: ['a'] }],
  };
  for (const tool of Object.values(TOOLS)) {
    it(`${tool.name}: agrees with a run-time compile of its schema`, () => {
      const compiled: ValidateFunction = runtime.compile(tool.inputSchema);
      const precompiled = inputValidators[tool.name];
      assert.ok(precompiled);
      for (const input of [...(samples[tool.name] ?? []), {}, undefined, { path: 'a', command: 'b' }]) {
        const verdict = compiled(input);
        assert.equal(precompiled(input), verdict, JSON.stringify(input));
        assert.deepEqual(precompiled.errors ?? null, compiled.errors ?? null, JSON.stringify(input));
      }
    });
  }

  it('names the first bad field, as before', () => {
    const bad = validateInput(TOOLS.edit_file, { path: 'a.ts', edits: [{ search: 'a', replace: 'b' }, { search: '', replace: 'b' }] });
    assert.ok(!bad.ok);
    assert.equal(bad.error.code, 'INVALID_INPUT');
    assert.equal(bad.error.message, "edit_file: 'edits[1].search' must NOT have fewer than 1 characters. Fix the argument and call again.");
    assert.deepEqual(bad.error.meta, { field: 'edits[1].search', tool: 'edit_file' });
  });

  it('refuses (fail closed) a tool that has no precompiled validator', () => {
    const unknown = { ...TOOLS.read_file, name: 'not_generated' as ToolName } satisfies ToolDefinition;
    const result = validateInput(unknown, { path: 'a.ts' });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'HOOK_ERROR');
    assert.deepEqual(result.error.meta, { tool: 'not_generated' });
  });
});
