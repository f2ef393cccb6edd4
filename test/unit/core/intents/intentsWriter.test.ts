import { strict as assert } from 'node:assert';
import type { Result } from '../../../../src/core/toolError';
import { parseIntentsFile } from '../../../../src/core/intents/intentsFile';
import { addScopeToText, setStatusInText } from '../../../../src/core/intents/intentsWriter';

const FILE = '.orchestration/active_intents.yaml';
const yaml = (...lines: string[]) => lines.join('\n') + '\n';

function value(result: Result<string>): string {
  assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
  return result.value;
}

function scopeOf(text: string, id: string): string[] | undefined {
  const snapshot = parseIntentsFile(text, FILE);
  assert.ok(snapshot.valid);
  return snapshot.intents.find((i) => i.id === id)?.owned_scope;
}

// Odd spacing, trailing comments, a blank line, unknown keys and quoting: all of it must come back byte for byte.
const PLAN = yaml(
  '# Plan for the sprint',
  'active_intents:   # edited by humans and by approvals',
  '',
  '  - id: auth   # the big one',
  '    name: "Refactor auth"',
  '    status:   IN_PROGRESS   # since Monday',
  '    owned_scope:',
  '      - src/auth/**   # core',
  '      # - src/legacy/**  (not yet)',
  '    ticket: {tracker: JIRA, key: AUTH-1}',
  '',
  '  - id: docs',
  "    name: 'Docs'",
  "    status: 'PLANNED'",
  '    owned_scope: [docs/**,   README.md]  # flow style',
  '    x-notes: keep me',
  '# end of plan',
);

describe('intentsWriter', () => {
  describe('addScopeToText', () => {
    it('appends to a block list, keeping every comment, blank line and unknown key byte for byte', () => {
      const out = value(addScopeToText(PLAN, FILE, 'auth', ['test/auth/**', 'src/session.ts']));
      assert.equal(out, PLAN.replace('      - src/auth/**   # core\n', '      - src/auth/**   # core\n      - test/auth/**\n      - src/session.ts\n'));
    });

    it('appends to a flow list in place', () => {
      const out = value(addScopeToText(PLAN, FILE, 'docs', ['CHANGELOG.md']));
      assert.equal(out, PLAN.replace('[docs/**,   README.md]', '[docs/**,   README.md, CHANGELOG.md]'));
    });

    it('fills an empty owned_scope', () => {
      for (const [before, after] of [
        ['owned_scope: []', 'owned_scope: [src/**]'],
        ['owned_scope:', 'owned_scope: [src/**]'],
        ['owned_scope: ~  # none yet', 'owned_scope: [src/**]  # none yet'],
      ]) {
        const text = yaml('active_intents:', '  - id: x', '    name: X', '    status: PLANNED', `    ${before}`, '    owner: me');
        assert.equal(value(addScopeToText(text, FILE, 'x', ['src/**'])), text.replace(before, after));
      }
    });

    it('quotes a glob that YAML would misread and follows the quoting of its neighbours', () => {
      const text = yaml('active_intents:', '  - id: x', '    name: X', '    status: PLANNED', '    owned_scope:', '      - src/**');
      const out = value(addScopeToText(text, FILE, 'x', ['**/*.md', '2024', 'a,b/[xy].ts']));
      assert.ok(out.endsWith('      - src/**\n      - "**/*.md"\n      - "2024"\n      - "a,b/[xy].ts"\n'), out);
      assert.deepEqual(scopeOf(out, 'x'), ['src/**', '**/*.md', '2024', 'a,b/[xy].ts']);
      const quoted = text.replace('- src/**', "- 'src/**'");
      assert.ok(value(addScopeToText(quoted, FILE, 'x', ['lib/**'])).endsWith("      - 'src/**'\n      - 'lib/**'\n"));
    });

    it('skips globs the intent already owns, including ./ spellings, and leaves the text alone when nothing is new', () => {
      assert.equal(value(addScopeToText(PLAN, FILE, 'auth', ['./src/auth/**', 'src/auth/**'])), PLAN);
      const out = value(addScopeToText(PLAN, FILE, 'docs', ['docs/**', './lib/**', 'lib/**']));
      assert.deepEqual(scopeOf(out, 'docs'), ['docs/**', 'README.md', 'lib/**']);
    });

    it('keeps CRLF line endings', () => {
      const text = yaml('active_intents:', '  - id: x', '    name: X', '    status: PLANNED', '    owned_scope:', '      - a/**').replace(/\n/g, '\r\n');
      assert.equal(value(addScopeToText(text, FILE, 'x', ['b/**'])), `${text}      - b/**\r\n`);
    });

    it('writes out an aliased list so the other intents using the anchor keep their scope', () => {
      const text = yaml(
        'active_intents:',
        '  - {id: a, name: A, status: DONE, owned_scope: &common [docs/**]}',
        '  - {id: b, name: B, status: DONE, owned_scope: *common}',
      );
      const out = value(addScopeToText(text, FILE, 'b', ['src/**']));
      assert.equal(out, text.replace('owned_scope: *common}', 'owned_scope: [docs/**, src/**]}'));
      assert.deepEqual(scopeOf(out, 'a'), ['docs/**']);
    });

    it('refuses to grow a list shared through an anchor, since that would widen another intent too', () => {
      const text = yaml(
        'active_intents:',
        '  - {id: a, name: A, status: DONE, owned_scope: &common [docs/**]}',
        '  - {id: b, name: B, status: DONE, owned_scope: *common}',
      );
      const result = addScopeToText(text, FILE, 'a', ['src/**']);
      assert.ok(!result.ok);
      assert.equal(result.error.code, 'INTENTS_FILE_INVALID');
      assert.match(result.error.message, /YAML anchor\?\); edit the file by hand/);
    });

    it('refuses a rejected glob with the reason, and an empty request', () => {
      const result = addScopeToText(PLAN, FILE, 'auth', ['src/ok/**', '../elsewhere/**']);
      assert.ok(!result.ok);
      assert.equal(result.error.code, 'INVALID_INPUT');
      assert.match(result.error.message, /^Scope pattern '\.\.\/elsewhere\/\*\*' is rejected: '\.\.' segments are not allowed/);
      const empty = addScopeToText(PLAN, FILE, 'auth', []);
      assert.ok(!empty.ok && empty.error.code === 'INVALID_INPUT');
    });

    it('refuses an unknown intent, naming the ones that exist', () => {
      const result = addScopeToText(PLAN, FILE, 'billing', ['src/**']);
      assert.ok(!result.ok);
      assert.equal(result.error.code, 'INTENT_NOT_FOUND');
      assert.equal(result.error.message, `No intent 'billing' in ${FILE}; known intents: auth, docs.`);
    });

    it('refuses to edit an invalid file, quoting its problems with line and column', () => {
      const result = addScopeToText(PLAN.replace("'PLANNED'", 'SOON'), FILE, 'auth', ['src/**']);
      assert.ok(!result.ok);
      assert.equal(result.error.code, 'INTENTS_FILE_INVALID');
      assert.match(result.error.message, /\n\.orchestration\/active_intents\.yaml:14:13: intent 'docs': status 'SOON' is not one of/);
    });
  });

  describe('setStatusInText', () => {
    it('changes only the status value, keeping its spacing, quotes and trailing comment', () => {
      assert.equal(value(setStatusInText(PLAN, FILE, 'auth', 'DONE')), PLAN.replace('status:   IN_PROGRESS   # since', 'status:   DONE   # since'));
      assert.equal(value(setStatusInText(PLAN, FILE, 'docs', 'IN_PROGRESS')), PLAN.replace("status: 'PLANNED'", "status: 'IN_PROGRESS'"));
    });

    it('replaces a folded block status without swallowing the next line', () => {
      const text = yaml('active_intents:', '  - id: x', '    name: X', '    status: >-', '      PLANNED', '    owned_scope: []');
      assert.equal(value(setStatusInText(text, FILE, 'x', 'BLOCKED')), yaml('active_intents:', '  - id: x', '    name: X', '    status: BLOCKED', '    owned_scope: []'));
    });

    it('leaves the text alone when the status is already set', () => {
      assert.equal(value(setStatusInText(PLAN, FILE, 'auth', 'IN_PROGRESS')), PLAN);
    });

    it('refuses an unknown status or intent', () => {
      const bad = setStatusInText(PLAN, FILE, 'auth', 'WIP' as never);
      assert.ok(!bad.ok && bad.error.code === 'INVALID_INPUT');
      const missing = setStatusInText(PLAN, FILE, 'nope', 'DONE');
      assert.ok(!missing.ok && missing.error.code === 'INTENT_NOT_FOUND');
    });
  });
});
