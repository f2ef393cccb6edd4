import { strict as assert } from 'node:assert';
import type { ChangeClassName, ChangeClassRule } from '../../../../src/core/changeClass/changeClass';
import { classifyChange, classifyChanges, MAX_CLASSIFIED_CHARS } from '../../../../src/core/changeClass/classifyChange';

const SESSION_TS = `import { createHash } from 'node:crypto';
import type { User } from './user';

const TTL_MS = 15 * 60 * 1000;

/** A session token for a user, valid for TTL_MS. */
export function issueToken(user: User, now: number): string {
  const payload = \`\${user.id}:\${now + TTL_MS}\`;
  const digest = createHash('sha256').update(payload).digest('hex');
  return \`\${payload}:\${digest}\`;
}

export function isExpired(token: string, now: number): boolean {
  const parts = token.split(':');
  return Number(parts[1]) < now;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function verify(token: string): boolean {
  const [id, expires, digest] = token.split(':');
  return hashOf(\`\${id}:\${expires}\`) === digest;
}
`;

const CART_JS = `'use strict';
const { round } = require('./money');

function subtotal(items) {
  let sum = 0;
  for (const item of items) sum += item.price * item.quantity;
  return sum;
}

function total(items, taxRate) {
  const net = subtotal(items);
  return round(net * (1 + taxRate));
}

module.exports = { subtotal, total };
`;

const REPORT_PY = `import json


def summarize(rows):
    total = 0
    for row in rows:
        total += row["amount"]
    return {"count": len(rows), "total": total}


def main(path):
    with open(path) as f:
        print(json.dumps(summarize(json.load(f))))
`;

interface Case {
  name: string;
  path: string;
  before: string | undefined;
  after: string | undefined;
  class: ChangeClassName;
  rule: ChangeClassRule;
  reason?: RegExp;
}

const cases: Case[] = [
  {
    name: 'TS: rename a local',
    path: 'src/auth/session.ts',
    before: SESSION_TS,
    after: SESSION_TS.replace(/const parts = token.split\(':'\);\n  return Number\(parts\[1\]\)/, "const fields = token.split(':');\n  return Number(fields[1])"),
    class: 'AST_REFACTOR',
    rule: 'syntax-tree',
  },
  {
    name: 'TS: rename a parameter and a destructured local together',
    path: 'src/auth/session.ts',
    before: SESSION_TS,
    after: SESSION_TS.replace('export function verify(token: string): boolean {\n  const [id, expires, digest] = token.split(\':\');\n  return hashOf(`${id}:${expires}`) === digest;', "export function verify(candidate: string): boolean {\n  const [userId, expiry, signature] = candidate.split(':');\n  return hashOf(`${userId}:${expiry}`) === signature;"),
    class: 'AST_REFACTOR',
    rule: 'syntax-tree',
  },
  {
    name: 'TS: reorder functions',
    path: 'src/auth/session.ts',
    before: SESSION_TS,
    after: SESSION_TS.replace(/(export function isExpired[\s\S]*?\n}\n)\n(function hashOf[\s\S]*?\n}\n)/, '$2\n$1'),
    class: 'AST_REFACTOR',
    rule: 'syntax-tree',
  },
  {
    name: 'TS: reformat (quotes, semicolons, line breaks, redundant parentheses, comments)',
    path: 'src/auth/session.ts',
    before: SESSION_TS,
    after: SESSION_TS.replace("import { createHash } from 'node:crypto';", 'import {createHash} from "node:crypto"')
      .replace('const TTL_MS = 15 * 60 * 1000;', 'const TTL_MS = (15 * 60) * 1000 // fifteen minutes')
      .replace('  const parts = token.split(\':\');\n  return Number(parts[1]) < now;', '  const parts = token.split(\n    ":",\n  );\n  return (Number(parts[1]) < now);'),
    class: 'AST_REFACTOR',
    rule: 'syntax-tree',
  },
  {
    name: 'TS: add a branch',
    path: 'src/auth/session.ts',
    before: SESSION_TS,
    after: SESSION_TS.replace("  const parts = token.split(':');\n", "  const parts = token.split(':');\n  if (parts.length !== 3) return true;\n"),
    class: 'INTENT_EVOLUTION',
    rule: 'syntax-tree',
    reason: /changes `isExpired`/,
  },
  {
    name: 'TS: change an exported signature',
    path: 'src/auth/session.ts',
    before: SESSION_TS,
    after: SESSION_TS.replace('export function isExpired(token: string, now: number): boolean {', 'export function isExpired(token: string, now = Date.now()): boolean {'),
    class: 'INTENT_EVOLUTION',
    rule: 'syntax-tree',
    reason: /changes the signature of exported `isExpired`/,
  },
  {
    name: 'TS: add an export',
    path: 'src/auth/session.ts',
    before: SESSION_TS,
    after: `${SESSION_TS}\nexport function revoke(token: string): string {\n  return \`\${token}:revoked\`;\n}\n`,
    class: 'INTENT_EVOLUTION',
    rule: 'syntax-tree',
    reason: /adds export `revoke`/,
  },
  {
    name: 'TS: export a private helper',
    path: 'src/auth/session.ts',
    before: SESSION_TS,
    after: SESSION_TS.replace('function hashOf(', 'export function hashOf('),
    class: 'INTENT_EVOLUTION',
    rule: 'syntax-tree',
    reason: /adds export `hashOf`/,
  },
  {
    name: 'TS: a rename that captures another variable',
    path: 'src/auth/session.ts',
    before: SESSION_TS,
    after: SESSION_TS.replace('const payload = `${user.id}:${now + TTL_MS}`;\n  const digest = createHash(\'sha256\').update(payload).digest(\'hex\');\n  return `${payload}:${digest}`;', 'const payload = `${user.id}:${now + TTL_MS}`;\n  const payload2 = createHash(\'sha256\').update(payload).digest(\'hex\');\n  return `${payload2}:${payload2}`;'),
    class: 'INTENT_EVOLUTION',
    rule: 'syntax-tree',
  },
  {
    name: 'TS: a change that no longer parses',
    path: 'src/auth/session.ts',
    before: SESSION_TS,
    after: SESSION_TS.replace('return Number(parts[1]) < now;', 'return Number(parts[1] < now;'),
    class: 'INTENT_EVOLUTION',
    rule: 'syntax-tree',
    reason: /the new content does not parse \(line 15: '\)' expected/,
  },
  {
    name: 'JS: rename locals and reorder functions',
    path: 'lib/cart.js',
    before: CART_JS,
    after: CART_JS.replace(/(function subtotal[\s\S]*?\n}\n)\n(function total[\s\S]*?\n}\n)/, '$2\n$1').replace(/let sum = 0;\n  for \(const item of items\) sum \+= item.price \* item.quantity;\n  return sum;/, 'let acc = 0;\n  for (const line of items) acc += line.price * line.quantity;\n  return acc;'),
    class: 'AST_REFACTOR',
    rule: 'syntax-tree',
  },
  {
    name: 'JS: reformat',
    path: 'lib/cart.js',
    before: CART_JS,
    after: CART_JS.replace("const { round } = require('./money');", 'const {round} = require("./money")').replace('module.exports = { subtotal, total };', 'module.exports = {\n  subtotal,\n  total,\n};'),
    class: 'AST_REFACTOR',
    rule: 'syntax-tree',
  },
  {
    name: 'JS: change an operator',
    path: 'lib/cart.js',
    before: CART_JS,
    after: CART_JS.replace('round(net * (1 + taxRate))', 'round(net * (1 - taxRate))'),
    class: 'INTENT_EVOLUTION',
    rule: 'syntax-tree',
    reason: /changes `total`/,
  },
  {
    name: 'JS: rename the property an exported object gives out',
    path: 'lib/cart.js',
    before: CART_JS,
    after: CART_JS.replace('module.exports = { subtotal, total };', 'module.exports = { subtotal, grandTotal: total };'),
    class: 'INTENT_EVOLUTION',
    rule: 'syntax-tree',
  },
  {
    name: 'JSX: reflow the markup',
    path: 'web/Badge.jsx',
    before: 'export function Badge({ user }) {\n  return <span className="badge">{user.name} ({user.role})</span>;\n}\n',
    after: 'export function Badge({ user }) {\n  return (\n    <span className="badge">\n      {user.name} ({user.role})\n    </span>\n  );\n}\n',
    class: 'AST_REFACTOR',
    rule: 'syntax-tree',
  },
  {
    name: 'Python (no parser): spacing, blank lines and a comment',
    path: 'tools/report.py',
    before: REPORT_PY,
    after: REPORT_PY.replace('    total = 0\n', '    # running sum of the amounts\n    total   =   0\n\n').replace('{"count": len(rows), "total": total}', '{"count": len(rows), "total": total}  '),
    class: 'AST_REFACTOR',
    rule: 'diff-shape',
  },
  {
    name: 'Python (no parser): rename a local is beyond the diff shape',
    path: 'tools/report.py',
    before: REPORT_PY,
    after: REPORT_PY.replace(/total = 0\n    for row in rows:\n        total \+= row\["amount"\]\n    return \{"count": len\(rows\), "total": total\}/, 'acc = 0\n    for row in rows:\n        acc += row["amount"]\n    return {"count": len(rows), "total": acc}'),
    class: 'INTENT_EVOLUTION',
    rule: 'diff-shape',
    reason: /line 5 changes code/,
  },
  {
    name: 'Python (no parser): re-indenting changes the blocks',
    path: 'tools/report.py',
    before: REPORT_PY,
    after: REPORT_PY.replace('    return {"count"', 'return {"count"'),
    class: 'INTENT_EVOLUTION',
    rule: 'diff-shape',
  },
  {
    name: 'JSON: reformat and reorder keys',
    path: 'config/limits.json',
    before: '{"max_items":50,"currencies":["EUR","USD"]}\n',
    after: '{\n  "currencies": ["EUR", "USD"],\n  "max_items": 50\n}\n',
    class: 'AST_REFACTOR',
    rule: 'data-value',
  },
  {
    name: 'YAML: a value changes',
    path: 'config/limits.yaml',
    before: 'max_items: 50 # per cart\ncurrencies: [EUR, USD]\n',
    after: 'max_items: 60 # per cart\ncurrencies: [EUR, USD]\n',
    class: 'INTENT_EVOLUTION',
    rule: 'data-value',
  },
  {
    name: 'Markdown: no layout rule, every change counts',
    path: 'docs/notes.md',
    before: '# Notes\n\nShip it.\n',
    after: '# Notes\n\nShip it.  \n',
    class: 'INTENT_EVOLUTION',
    rule: 'diff-shape',
  },
  { name: 'a new file', path: 'src/auth/new.ts', before: undefined, after: 'export const x = 1;\n', class: 'INTENT_EVOLUTION', rule: 'created' },
  { name: 'a deleted file', path: 'src/auth/session.ts', before: SESSION_TS, after: undefined, class: 'INTENT_EVOLUTION', rule: 'deleted' },
  { name: 'the same content written again', path: 'src/auth/session.ts', before: SESSION_TS, after: SESSION_TS, class: 'AST_REFACTOR', rule: 'unchanged' },
];

describe('change class (AST_REFACTOR / INTENT_EVOLUTION)', () => {
  for (const c of cases) {
    it(`${c.name}: ${c.class} by ${c.rule}`, () => {
      if (c.rule !== 'unchanged') assert.notEqual(c.before, c.after, 'the fixture must change something');
      const verdict = classifyChange({ path: c.path, before: c.before, after: c.after });
      assert.equal(verdict.class, c.class, `reason: ${verdict.reason}`);
      assert.equal(verdict.rule, c.rule);
      if (c.reason) assert.match(verdict.reason, c.reason);
    });
  }

  it('a file over the size limit is evolution without being parsed', () => {
    const big = `export const x = 1;\n${'// filler\n'.repeat(MAX_CLASSIFIED_CHARS / 10)}`;
    const verdict = classifyChange({ path: 'src/big.ts', before: big, after: `${big} ` });
    assert.deepEqual([verdict.class, verdict.rule], ['INTENT_EVOLUTION', 'too-large']);
  });

  it('a change to several files is a refactoring only when each file is; the evolving file is named', () => {
    const refactor = { path: 'lib/cart.js', before: CART_JS, after: CART_JS.replace("'./money'", '"./money"') };
    const evolution = { path: 'config/limits.json', before: '{"a":1}', after: '{"a":2}' };
    assert.equal(classifyChanges([refactor]).class, 'AST_REFACTOR');
    const both = classifyChanges([refactor, evolution]);
    assert.deepEqual([both.class, both.rule], ['INTENT_EVOLUTION', 'data-value']);
    assert.match(both.reason, /^config\/limits\.json: /);
  });

  it('a command that rewrote more than MAX_CHANGE_CHARS in all is evolution, and the files past the limit are not read', () => {
    const file = (i: number) => ({ path: `src/m${i}.ts`, before: `export const m${i} = 1;\n`.padEnd(200 * 1024, ' '), after: `export const m${i} = 1; \n`.padEnd(200 * 1024, ' ') });
    const compared: string[] = [];
    const verdict = classifyChanges([1, 2, 3, 4].map(file), (f) => (compared.push(f.path), classifyChange(f)));
    assert.deepEqual([verdict.class, verdict.rule], ['INTENT_EVOLUTION', 'too-large']);
    assert.match(verdict.reason, /^src\/m3\.ts: the change is over 1024 KiB in all/);
    assert.deepEqual(compared, ['src/m1.ts', 'src/m2.ts']);
  });
});
