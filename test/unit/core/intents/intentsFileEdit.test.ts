import { strict as assert } from 'node:assert';
import { INTENTS_TEMPLATE } from '../../../../src/host/intents/intentsTemplate';
import { parseIntentsFile } from '../../../../src/core/intents/intentsFile';
import { appendIntentToText, nextIntentId, parseGlobList, setScopeInText, type IntentDraft } from '../../../../src/core/intents/intentsFileEdit';
import type { Intent } from '../../../../src/core/intents/intent';
import type { Result } from '../../../../src/core/toolError';

const FILE = '.orchestration/active_intents.yaml';
const yaml = (...lines: string[]) => lines.join('\n') + '\n';

function value(result: Result<string>): string {
  assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
  return result.value;
}

function intents(text: string): Intent[] {
  const snapshot = parseIntentsFile(text, FILE);
  assert.ok(snapshot.valid, JSON.stringify(snapshot));
  return snapshot.intents;
}

const PLAN = yaml(
  '# Plan for the sprint',
  'active_intents:   # edited by humans',
  '',
  '  - id: INT-001   # the big one',
  '    name: "Refactor auth"',
  '    status:   IN_PROGRESS   # since Monday',
  '    owned_scope:',
  '      - src/auth/**   # core',
  '      - test/auth/**',
  '    ticket: {tracker: JIRA, key: AUTH-1}',
  '',
  '  - id: INT-007',
  "    name: 'Docs'",
  '    status: PLANNED',
  '    owned_scope: [docs/**]  # flow style',
  '# end of plan',
);

const DRAFT: IntentDraft = {
  id: 'INT-008',
  name: 'Billing: remove the legacy path',
  status: 'IN_PROGRESS',
  owned_scope: ['src/billing/**', './test/billing/**'],
  constraints: ['Keep invoice numbers stable', 'No new dependencies: "none"'],
  acceptance_criteria: ['Billing tests pass'],
};

describe('intentsFileEdit', () => {
  describe('appendIntentToText', () => {
    it('appends a new intent after the last one, keeping every comment, blank line and unknown key', () => {
      const out = value(appendIntentToText(PLAN, FILE, DRAFT));
      const [head, tail] = [PLAN.slice(0, PLAN.indexOf('# end of plan')), '# end of plan\n'];
      assert.ok(out.startsWith(head), out);
      assert.ok(out.endsWith(tail), out);
      const read = intents(out);
      assert.deepEqual(read.slice(0, 2), intents(PLAN));
      assert.deepEqual(read[2], {
        id: 'INT-008',
        name: 'Billing: remove the legacy path',
        status: 'IN_PROGRESS',
        owned_scope: ['src/billing/**', 'test/billing/**'],
        constraints: ['Keep invoice numbers stable', 'No new dependencies: "none"'],
        acceptance_criteria: ['Billing tests pass'],
        related: [],
      });
      // Written in the file's own block style, at the list's indentation.
      assert.match(out, /\n {2}- id: INT-008\n {4}name: "Billing: remove the legacy path"\n {4}status: IN_PROGRESS\n {4}owned_scope:\n {6}- src\/billing\/\*\*\n/);
    });

    it('turns the template\'s empty list into the first entry, keeping the commented example', () => {
      const out = value(appendIntentToText(INTENTS_TEMPLATE, FILE, { ...DRAFT, constraints: [], acceptance_criteria: [] }));
      assert.ok(out.startsWith(INTENTS_TEMPLATE.slice(0, INTENTS_TEMPLATE.indexOf('active_intents: []'))));
      assert.ok(out.includes('#     name: Move sessions to the new token store\n'));
      assert.deepEqual(intents(out).map((i) => i.id), ['INT-008']);
    });

    it('keeps a comment after an empty list on its line, and fills an empty or missing list', () => {
      const commented = value(appendIntentToText(yaml('active_intents: []  # nothing yet'), FILE, DRAFT));
      assert.match(commented, /^active_intents: # nothing yet\n {2}- id: INT-008\n/);
      for (const text of ['', yaml('# only a comment'), yaml('active_intents:')]) {
        const out = value(appendIntentToText(text, FILE, DRAFT));
        assert.deepEqual(intents(out).map((i) => i.id), ['INT-008'], out);
        if (text.startsWith('#')) assert.ok(out.startsWith(text), out);
      }
    });

    it('keeps CRLF line endings', () => {
      const crlf = PLAN.replace(/\n/g, '\r\n');
      const out = value(appendIntentToText(crlf, FILE, DRAFT));
      assert.ok(!/[^\r]\n/.test(out), 'a bare LF was written');
      assert.equal(intents(out).length, 3);
    });

    it('refuses an entry the loader would refuse, with the loader\'s message', () => {
      const cases: [Partial<IntentDraft>, RegExp][] = [
        [{ id: 'INT-001' }, /id 'INT-001' is already used by the intent at line 4/],
        [{ name: '  ' }, /'name' is empty/],
        [{ owned_scope: ['../outside/**'] }, /owned_scope pattern '\.\.\/outside\/\*\*' is rejected: '\.\.' segments are not allowed/],
        [{ owned_scope: ['src/{a,b}/**'] }, /braces are not supported/],
        [{ id: 'two\nlines' }, /'id' contains a control character/],
      ];
      for (const [change, message] of cases) {
        const result = appendIntentToText(PLAN, FILE, { ...DRAFT, ...change });
        assert.ok(!result.ok, JSON.stringify(change));
        assert.equal(result.error.code, 'INVALID_INPUT');
        assert.match(result.error.message, /^The new intent was not written: /);
        assert.match(result.error.message, message);
      }
    });

    it('refuses to add to an invalid file', () => {
      const result = appendIntentToText(yaml('active_intents:', '  - id: x', '    status: LATER'), FILE, DRAFT);
      assert.ok(!result.ok);
      assert.equal(result.error.code, 'INTENTS_FILE_INVALID');
      assert.match(result.error.message, /fix it before changing intents/);
    });
  });

  describe('setScopeInText', () => {
    it('replaces a block list in place, keeping the comments around it', () => {
      const out = value(setScopeInText(PLAN, FILE, 'INT-001', ['src/auth/**', 'src/session.ts', './src/auth/**']));
      assert.equal(out, PLAN.replace('      - src/auth/**   # core\n      - test/auth/**\n', '      - src/auth/**\n      - src/session.ts\n'));
    });

    it('replaces a flow list in place and can empty a list', () => {
      assert.equal(value(setScopeInText(PLAN, FILE, 'INT-007', ['docs/**', 'README.md'])), PLAN.replace('[docs/**]', '[docs/**, README.md]'));
      const emptied = value(setScopeInText(PLAN, FILE, 'INT-001', []));
      assert.deepEqual(intents(emptied)[0].owned_scope, []);
      assert.ok(emptied.includes('# the big one') && emptied.includes('# since Monday'));
    });

    it('refuses a glob the loader would refuse and an unknown intent', () => {
      const bad = setScopeInText(PLAN, FILE, 'INT-001', ['/etc/**']);
      assert.ok(!bad.ok);
      assert.match(bad.error.message, /absolute paths are not allowed/);
      const missing = setScopeInText(PLAN, FILE, 'INT-404', ['src/**']);
      assert.ok(!missing.ok);
      assert.equal(missing.error.code, 'INTENT_NOT_FOUND');
    });
  });

  it('suggests the next INT-NNN id', () => {
    assert.equal(nextIntentId([]), 'INT-001');
    assert.equal(nextIntentId([{ id: 'auth-refactor' }, { id: 'INT-009' }, { id: 'INT-002' }]), 'INT-010');
    assert.equal(nextIntentId([{ id: 'INT-999' }]), 'INT-1000');
  });

  it('reads typed globs separated by commas or spaces', () => {
    assert.deepEqual(parseGlobList(' src/a/**, test/a/**  docs/a.md,'), ['src/a/**', 'test/a/**', 'docs/a.md']);
  });
});
