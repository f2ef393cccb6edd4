import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IntentsSnapshot } from '../../../../src/core/intents/intent';
import { formatProblem, parseIntentsFile } from '../../../../src/core/intents/intentsFile';
import { MAX_PROBLEMS } from '../../../../src/core/intents/problemList';

const FILE = '.orchestration/active_intents.yaml';
const yaml = (...lines: string[]) => lines.join('\n') + '\n';

function intentsOf(text: string) {
  const snapshot = parseIntentsFile(text, FILE);
  assert.ok(snapshot.valid, `expected a valid file, got ${JSON.stringify(snapshot)}`);
  return snapshot.intents;
}

/** Every problem as `line:col message`, so a test names both where and what. */
function problemsOf(text: string): string[] {
  const snapshot = parseIntentsFile(text, FILE);
  assert.equal(snapshot.valid, false, 'expected the file to be refused');
  return (snapshot as IntentsSnapshot & { valid: false }).problems.map((p) => `${p.line}:${p.column} ${p.message}`);
}

function onlyProblem(text: string): string {
  const problems = problemsOf(text);
  assert.equal(problems.length, 1, problems.join('\n'));
  return problems[0];
}

const intent = (...fields: string[]) => yaml('active_intents:', '  - id: x', '    name: X', '    status: IN_PROGRESS', ...fields);

describe('intentsFile', () => {
  describe('a valid file', () => {
    it('reads every field, keeps list order and ignores unknown keys', () => {
      const text = yaml(
        '# The plan',
        'version: 2 # unknown top-level keys are ignored',
        'active_intents:',
        '  - id: auth-refactor',
        '    name: Refactor auth',
        '    status: IN_PROGRESS',
        '    owner: alice',
        '    owned_scope:',
        '      - src/auth/**',
        "      - './test/auth/**'",
        '    constraints:',
        '      - Keep the public API stable',
        '    acceptance_criteria: [Login works, Tokens rotate]',
        '    related: [billing]',
        '    priority: high',
        '  - id: billing',
        '    name: Billing',
        '    status: PLANNED',
        '    owned_scope: []',
      );
      assert.deepEqual(intentsOf(text), [
        {
          id: 'auth-refactor',
          name: 'Refactor auth',
          status: 'IN_PROGRESS',
          owner: 'alice',
          owned_scope: ['src/auth/**', 'test/auth/**'],
          constraints: ['Keep the public API stable'],
          acceptance_criteria: ['Login works', 'Tokens rotate'],
          related: ['billing'],
        },
        { id: 'billing', name: 'Billing', status: 'PLANNED', owned_scope: [], constraints: [], acceptance_criteria: [], related: [] },
      ]);
    });

    it('accepts an empty file, a comment-only file, an empty list and an empty key as no intents', () => {
      for (const text of ['', '# nothing planned yet\n', 'active_intents: []\n', 'active_intents:\n']) {
        assert.deepEqual(parseIntentsFile(text, FILE), { valid: true, file: FILE, exists: true, intents: [] }, JSON.stringify(text));
      }
    });

    it('reads an alias as the list its anchor names', () => {
      const text = yaml(
        'active_intents:',
        '  - id: a',
        '    name: A',
        '    status: DONE',
        '    owned_scope: []',
        '    constraints: &shared [No new dependencies]',
        '  - id: b',
        '    name: B',
        '    status: DONE',
        '    owned_scope: []',
        '    constraints: *shared',
      );
      assert.deepEqual(intentsOf(text)[1].constraints, ['No new dependencies']);
    });

    it("loads this repository's own intents file cleanly", () => {
      const path = join(__dirname, '../../../../.orchestration/active_intents.yaml');
      const intents = intentsOf(readFileSync(path, 'utf8'));
      assert.ok(intents.some((i) => i.id === 'core-governance' && i.status === 'IN_PROGRESS'));
      assert.ok(intents.length >= 4 && intents.length <= 12);
    });
  });

  describe('problems, each with the line and column to fix', () => {
    it('reports YAML syntax errors with a hint', () => {
      assert.equal(onlyProblem(yaml('active_intents:', '\t- id: x')), '2:1 YAML syntax error: Tabs are not allowed as indentation; indent with spaces, not tabs');
      assert.match(onlyProblem(yaml('active_intents:', '  - id: "x')), /^3:1 YAML syntax error: Missing closing "quote; add the missing closing character$/);
    });

    it('reports a key written twice in one intent', () => {
      assert.match(onlyProblem(intent('    owned_scope: []', '    name: Y')), /^6:5 YAML syntax error: Map keys must be unique; each key may appear only once/);
    });

    it('refuses more than one YAML document, pointing at the second', () => {
      assert.equal(
        onlyProblem(yaml('active_intents: []', '---', 'active_intents: []')),
        "2:1 the file holds 2 YAML documents; keep a single one (remove the '---' separators)",
      );
    });

    it('refuses a top level that is not a map', () => {
      assert.equal(
        onlyProblem(yaml('# intents', '- id: x')),
        "2:1 the top level must be a map with the key 'active_intents', found a list; start the file with 'active_intents:'",
      );
    });

    it('refuses a file without active_intents', () => {
      assert.equal(
        onlyProblem(yaml('intents:', '  - id: x')),
        "1:1 missing the top-level key 'active_intents'; add 'active_intents:' followed by a list of intents, or 'active_intents: []'",
      );
    });

    it('refuses active_intents that is not a list', () => {
      assert.equal(
        onlyProblem(yaml('active_intents:', '  id: x')),
        "2:3 'active_intents' must be a list of intents, found a map; start each intent with '- id: ...'",
      );
    });

    it('refuses an entry that is not a map', () => {
      assert.equal(
        onlyProblem(yaml('active_intents:', '  - just a sentence')),
        "2:5 intent #1 must be a map with id, name, status and owned_scope, found the string 'just a sentence'",
      );
    });

    it('refuses a missing, empty or non-string id', () => {
      const body = ['    name: X', '    status: DONE', '    owned_scope: []'];
      assert.equal(
        onlyProblem(yaml('active_intents:', '  - name: X', '    status: DONE', '    owned_scope: []')),
        "2:5 intent #1: missing 'id'; add a unique id such as 'id: auth-refactor'",
      );
      assert.equal(onlyProblem(yaml('active_intents:', "  - id: ''", ...body)), "2:9 intent #1: 'id' is empty; give it a unique id such as 'auth-refactor'");
      assert.equal(
        onlyProblem(yaml('active_intents:', '  - id: 42', ...body)),
        "2:9 intent #1: 'id' must be a string, found the number 42; put it in quotes to make it text",
      );
      assert.equal(onlyProblem(yaml('active_intents:', '  - id:', ...body)), "2:5 intent #1: 'id' must be a string, found nothing");
    });

    it('refuses a duplicate id at the second one, naming the line of the first', () => {
      const text = yaml(
        'active_intents:',
        '  - id: auth',
        '    name: A',
        '    status: DONE',
        '    owned_scope: []',
        '  - id: auth',
        '    name: B',
        '    status: DONE',
        '    owned_scope: []',
      );
      assert.equal(onlyProblem(text), "6:9 intent 'auth': id 'auth' is already used by the intent at line 2; give each intent its own id");
    });

    it('refuses a missing name at the intent', () => {
      assert.equal(
        onlyProblem(yaml('active_intents:', '  - id: x', '    status: DONE', '    owned_scope: []')),
        "2:5 intent 'x': missing 'name'; add a short human-readable name",
      );
    });

    it('refuses an unknown status, listing the valid ones and suggesting the likely one', () => {
      const text = yaml('active_intents:', '  - id: auth-refactor', '    name: A', '    status: WIP', '    owned_scope: []');
      assert.equal(
        onlyProblem(text),
        "4:13 intent 'auth-refactor': status 'WIP' is not one of PLANNED, IN_PROGRESS, BLOCKED, DONE, ABANDONED; use IN_PROGRESS for work under way",
      );
      assert.match(onlyProblem(text.replace('WIP', 'in-progress')), /status 'in-progress' is not one of .*; use IN_PROGRESS/);
      assert.match(onlyProblem(text.replace('WIP', 'completed')), /; use DONE for finished work$/);
      assert.match(onlyProblem(text.replace('WIP', 'someday')), /; use IN_PROGRESS for work under way \(the only status that allows writes\)/);
    });

    it('refuses a missing status', () => {
      assert.match(
        onlyProblem(yaml('active_intents:', '  - id: x', '    name: X', '    owned_scope: []')),
        /^2:5 intent 'x': missing 'status'; add one of PLANNED, IN_PROGRESS, BLOCKED, DONE, ABANDONED/,
      );
    });

    it('refuses a missing owned_scope, or one that is not a list of strings', () => {
      assert.match(onlyProblem(intent()), /^2:5 intent 'x': missing 'owned_scope'; add the workspace-relative globs it may write/);
      assert.equal(
        onlyProblem(intent('    owned_scope: src/**')),
        "5:18 intent 'x': 'owned_scope' must be a list of globs, found the string 'src/**'; write it as a list: owned_scope: ['src/**']",
      );
      assert.equal(
        onlyProblem(intent('    owned_scope:', '      - src/**', '      - 7')),
        "7:9 intent 'x': owned_scope item 2 must be a glob string, found the number 7; put it in quotes to make it text",
      );
    });

    it("points a rejected scope pattern at the pattern's own line and column", () => {
      assert.equal(
        onlyProblem(intent('    owned_scope:', '      - src/**', '      - ../shared/**   # sibling repo')),
        "7:9 intent 'x': owned_scope pattern '../shared/**' is rejected: '..' segments are not allowed; scopes stay inside the workspace, so write the path from the workspace root",
      );
      assert.match(onlyProblem(intent('    owned_scope: [src/**, "src/{a,b}/**"]')), /^5:27 intent 'x': owned_scope pattern 'src\/\{a,b\}\/\*\*' is rejected: braces are not supported/);
      assert.match(onlyProblem(intent('    owned_scope: ["a\\tb"]')), /^5:19 intent 'x': owned_scope pattern 'a\\tb' is rejected: .*control character/);
    });

    it('refuses constraints, acceptance criteria and related that are not lists of strings', () => {
      assert.equal(
        onlyProblem(intent('    owned_scope: []', '    constraints: Keep it small')),
        "6:18 intent 'x': 'constraints' must be a list of strings, found the string 'Keep it small'; write it as a list item: '- Keep it small'",
      );
      assert.equal(
        onlyProblem(intent('    owned_scope: []', '    acceptance_criteria:', '      - ok', '      - {a: 1}')),
        "8:9 intent 'x': acceptance_criteria item 2 must be a string, found a map",
      );
      assert.equal(onlyProblem(intent('    owned_scope: []', '    related: {a: 1}')), "6:14 intent 'x': 'related' must be a list of strings, found a map");
    });

    it('refuses an owner that is not a string', () => {
      assert.equal(onlyProblem(intent('    owned_scope: []', '    owner: [alice, bob]')), "6:12 intent 'x': 'owner' must be a string, found a list");
    });

    it('reports every problem in the file, in file order', () => {
      const text = yaml(
        'active_intents:',
        '  - id: a',
        '    name: A',
        '    status: wip',
        '    owned_scope: [/abs]',
        '  - id: b',
        '    status: DONE',
        '    owned_scope: []',
      );
      assert.deepEqual(
        problemsOf(text).map((p) => p.split(' ')[0]),
        ['4:13', '5:19', '6:5'],
      );
    });

    it(`stops at ${MAX_PROBLEMS} problems and says more remain`, () => {
      const entries = Array.from({ length: 60 }, (_, i) => `  - {id: i${i}, name: N, status: NOPE, owned_scope: []}`);
      const problems = problemsOf(yaml('active_intents:', ...entries));
      assert.equal(problems.length, MAX_PROBLEMS);
      assert.match(problems[MAX_PROBLEMS - 1], /\(and 10 more problems after this one; fix these and reload\)$/);
    });

    it('caps the number of intents', () => {
      const entries = Array.from({ length: 1001 }, (_, i) => `  - {id: i${i}, name: N, status: DONE, owned_scope: []}`);
      assert.equal(onlyProblem(yaml('active_intents:', ...entries)), '1002:5 too many intents (1001); at most 1000 are supported, remove DONE and ABANDONED ones');
    });

    it('caps the number of scope patterns per intent', () => {
      const globs = Array.from({ length: 201 }, (_, i) => `      - dir${i}/**`);
      assert.match(onlyProblem(intent('    owned_scope:', ...globs)), /^206:9 intent 'x': too many owned_scope patterns \(201\); at most 200/);
    });
  });

  it('formats a problem as file:line:col: message', () => {
    assert.equal(formatProblem({ file: FILE, line: 4, column: 13, message: 'bad' }), `${FILE}:4:13: bad`);
  });
});

describe('intentsFile: approval', () => {
  it('reads an intent’s approval mode; absent means the editor’s setting decides', () => {
    assert.equal(intentsOf(intent('    owned_scope: []', '    approval: destructive-only'))[0].approval, 'destructive-only');
    assert.equal(intentsOf(intent('    owned_scope: []', '    approval: every-change'))[0].approval, 'every-change');
    assert.equal('approval' in intentsOf(intent('    owned_scope: []'))[0], false);
  });

  it('refuses an unknown approval mode where it is written, naming the valid ones', () => {
    assert.equal(
      onlyProblem(intent('    owned_scope: []', '    approval: never')),
      "6:15 intent 'x': approval 'never' is not one of every-change, destructive-only; use every-change to be asked before every write, or remove the line to use the editor's setting",
    );
    assert.match(onlyProblem(intent('    owned_scope: []', '    approval: true')), /'approval' must be a string, found/);
  });
});
