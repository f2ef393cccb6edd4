import { strict as assert } from 'node:assert';
import { diffShapeRule } from '../../../../src/core/changeClass/diffShapeRule';

const PY = '#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nimport sys\n\n\ndef greet(name):\n    message = "Hello, " + name\n    print(message, file=sys.stderr)\n';

/** Each case: [what, extension, before, after, expected class]. */
const cases: [string, string, string, string, 'AST_REFACTOR' | 'INTENT_EVOLUTION'][] = [
  ['spacing around punctuation', '.py', PY, PY.replace('print(message, file=sys.stderr)', 'print( message , file = sys.stderr )'), 'AST_REFACTOR'],
  ['blank lines and trailing whitespace', '.py', PY, PY.replace('import sys\n', 'import sys   \n\n\n'), 'AST_REFACTOR'],
  ['a whole-line comment added', '.py', PY, PY.replace('def greet', '# says hello\ndef greet'), 'AST_REFACTOR'],
  ['a comment after code changes that line', '.py', PY, PY.replace('import sys', 'import sys  # for stderr'), 'INTENT_EVOLUTION'],
  ['spacing between two words joins them', '.py', 'return not x\n', 'return notx\n', 'INTENT_EVOLUTION'],
  ['spacing inside a line with a string may be inside the string', '.py', PY, PY.replace('"Hello, " + name', '"Hello,  " + name'), 'INTENT_EVOLUTION'],
  ['the interpreter line is not a comment', '.py', PY, PY.replace('python3', 'python2'), 'INTENT_EVOLUTION'],
  ['the coding declaration is not a comment', '.py', PY, PY.replace('utf-8', 'latin-1'), 'INTENT_EVOLUTION'],
  ['indentation is compared exactly', '.py', PY, PY.replace('    print(message', '        print(message'), 'INTENT_EVOLUTION'],
  ['two operators kept apart stay apart', '.c', 'int y = - -x;\n', 'int y = --x;\n', 'INTENT_EVOLUTION'],
  ['a // comment line in Go', '.go', 'package main\n\nfunc f() int { return 1 }\n', 'package main\n\n// f is one.\nfunc f() int { return 1 }\n', 'AST_REFACTOR'],
  ['a file type without a layout rule', '.txt', 'a\n', 'a\n\n', 'INTENT_EVOLUTION'],
];

describe('diff-shape rule (files without a parser)', () => {
  for (const [what, extension, before, after, expected] of cases) {
    it(`${what}: ${expected}`, () => {
      assert.notEqual(before, after);
      const verdict = diffShapeRule(extension, before, after);
      assert.equal(verdict.class, expected, verdict.reason);
      assert.equal(verdict.rule, 'diff-shape');
    });
  }
});
