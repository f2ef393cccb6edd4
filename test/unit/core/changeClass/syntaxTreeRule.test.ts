import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { syntaxTreeRule } from '../../../../src/core/changeClass/syntaxTreeRule';

const SRC = join(__dirname, '..', '..', '..', '..', 'src');

/** Each case: [what, extension, before, after, expected class]. */
const cases: [string, string, string, string, 'AST_REFACTOR' | 'INTENT_EVOLUTION'][] = [
  ['a local renamed to the name a property has elsewhere is still a refactoring', '.js', 'export function f(o) { const a = 1; return o.b + a; }', 'export function f(o) { const b = 1; return o.b + b; }', 'AST_REFACTOR'],
  ['a property access renamed along with a local is evolution', '.js', 'export function f(o) { const a = 1; return o.a + a; }', 'export function f(o) { const b = 1; return o.b + b; }', 'INTENT_EVOLUTION'],
  ['a shorthand property keeps its key when the variable is renamed: evolution', '.js', 'export function f() { const a = 1; return { a }; }', 'export function f() { const b = 1; return { b }; }', 'INTENT_EVOLUTION'],
  ['shorthand written out is the same object', '.js', 'export function f() { const a = 1; return { a }; }', 'export function f() { const b = 1; return { a: b }; }', 'AST_REFACTOR'],
  ['a renamed local that now shadows an outer one is evolution', '.ts', 'const limit = 10;\nexport function f(n: number) { const max = n; return Math.min(max, limit); }', 'const limit = 10;\nexport function f(n: number) { const limit = n; return Math.min(limit, limit); }', 'INTENT_EVOLUTION'],
  ['with a direct eval, locals keep their names', '.js', 'export function f() { const x = 1; return eval("x"); }', 'export function f() { const y = 1; return eval("x"); }', 'INTENT_EVOLUTION'],
  ['a constructor parameter property is a field: its name is API', '.ts', 'export class A { constructor(private size: number) {} }', 'export class A { constructor(private length: number) {} }', 'INTENT_EVOLUTION'],
  ['an enum member name inside an initializer is the member, not a local', '.ts', 'export function f() { const A = 5; enum E { A = 1, B = A } return E.B; }', 'export function f() { const Z = 5; enum E { A = 1, B = Z } return E.B; }', 'INTENT_EVOLUTION'],
  ['imports reordered', '.ts', "import { b } from './b';\nimport { a } from './a';\nexport const x = a + b;", "import { a } from './a';\nimport { b } from './b';\nexport const x = a + b;", 'AST_REFACTOR'],
  ['side-effect imports reordered run in another order', '.ts', "import './polyfill';\nimport './app';", "import './app';\nimport './polyfill';", 'INTENT_EVOLUTION'],
  ['class methods reordered', '.ts', 'export class C { a() { return 1; } b() { return 2; } }', 'export class C { b() { return 2; } a() { return 1; } }', 'AST_REFACTOR'],
  ['class fields reordered initialise in another order', '.ts', 'export class C { a = first(); b = second(); }', 'export class C { b = second(); a = first(); }', 'INTENT_EVOLUTION'],
  ['top-level constants reordered evaluate in another order', '.ts', 'const a = first();\nconst b = second();\nexport { a, b };', 'const b = second();\nconst a = first();\nexport { a, b };', 'INTENT_EVOLUTION'],
  ['exported arrow functions and constant tables reordered', '.ts', 'export const double = (n: number) => n * 2;\nexport const LIMITS = { max: 10, units: ["a", "b"] } as const;\nexport const half = (n: number) => n / 2;', 'export const half = (n: number) => n / 2;\nexport const double = (n: number) => n * 2;\nexport const LIMITS = { max: 10, units: ["a", "b"] } as const;', 'AST_REFACTOR'],
  ['a constant moved past a call that may read it', '.ts', 'export const max = 10;\nsetup();\nexport const min = 1;', 'setup();\nexport const max = 10;\nexport const min = 1;', 'INTENT_EVOLUTION'],
  ['a constant computed from another, reordered (it would read it too early)', '.ts', 'const a = 1;\nconst b = a + 1;\nexport { b };', 'const b = a + 1;\nconst a = 1;\nexport { b };', 'INTENT_EVOLUTION'],
  ['var declared twice: the later one wins', '.js', 'var mode = "fast";\nvar mode = "safe";\nexport { mode };', 'var mode = "safe";\nvar mode = "fast";\nexport { mode };', 'INTENT_EVOLUTION'],
  ['plain classes reordered', '.ts', 'export class A { x = 1; get() { return this.x; } }\nexport class B { y = 2; }', 'export class B { y = 2; }\nexport class A { x = 1; get() { return this.x; } }', 'AST_REFACTOR'],
  ['a subclass moved above its base runs extends too early', '.ts', 'class Base {}\nexport class Child extends Base {}', 'export class Child extends Base {}\nclass Base {}', 'INTENT_EVOLUTION'],
  ['a method defined twice: the later one wins', '.js', 'export class C { m() { return 1; } m() { return 2; } }', 'export class C { m() { return 2; } m() { return 1; } }', 'INTENT_EVOLUTION'],
  ['nested functions moved and renamed together', '.ts', 'export function f(n: number) { function sq(v: number) { return v * v; } function inc(v: number) { return v + 1; } return sq(inc(n)); }', 'export function f(n: number) { function plusOne(w: number) { return w + 1; } function square(w: number) { return w * w; } return square(plusOne(n)); }', 'AST_REFACTOR'],
  ['nested functions swapped at the call', '.ts', 'export function f(n: number) { function sq(v: number) { return v * v; } function inc(v: number) { return v + 1; } return sq(inc(n)); }', 'export function f(n: number) { function sq(v: number) { return v * v; } function inc(v: number) { return v + 1; } return inc(sq(n)); }', 'INTENT_EVOLUTION'],
  ['a type parameter renamed', '.ts', 'export function id<T>(x: T): T { return x; }', 'export function id<Value>(x: Value): Value { return x; }', 'AST_REFACTOR'],
  ['parentheses that change precedence', '.js', 'export const t = (1 + 2) * 3;', 'export const t = 1 + 2 * 3;', 'INTENT_EVOLUTION'],
  ['a for loop condition moved into its initializer', '.js', 'export function f(x) { for (; x; ) {} }', 'export function f(x) { for (x; ; ) {} }', 'INTENT_EVOLUTION'],
  ['let becomes var', '.js', 'export function f() { let x = 1; return x; }', 'export function f() { var x = 1; return x; }', 'INTENT_EVOLUTION'],
  ['optional chaining added', '.ts', 'export const f = (o: { a?: { b: number } }) => o.a!.b;', 'export const f = (o: { a?: { b: number } }) => o.a?.b;', 'INTENT_EVOLUTION'],
  ['an escape String.raw sees', '.js', 'export const s = String.raw`a\\x41`;', 'export const s = String.raw`aA`;', 'INTENT_EVOLUTION'],
  ['the same string in other quotes and escapes', '.js', "export const s = 'it\\'s';", 'export const s = "it\'s";', 'AST_REFACTOR'],
  ['JSX text is compared as React renders it', '.tsx', 'export const A = () => <p>Hello   world</p>;', 'export const A = () => (\n  <p>\n    Hello   world\n  </p>\n);', 'AST_REFACTOR'],
  ['a lowercase JSX tag is an element, not a local', '.jsx', 'export function f(div) { return <div />; }', 'export function f(span) { return <div />; }', 'AST_REFACTOR'],
];

describe('syntax-tree rule (TypeScript and JavaScript)', () => {
  for (const [what, extension, before, after, expected] of cases) {
    it(`${what}: ${expected}`, () => {
      const verdict = syntaxTreeRule(extension, before, after);
      assert.equal(verdict.class, expected, verdict.reason);
      assert.equal(verdict.rule, 'syntax-tree');
    });
  }

  const realFiles = ['core/changeClass', 'core/trace'].flatMap((dir) =>
    readdirSync(join(SRC, dir))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(SRC, dir, name)),
  );

  it(`reprinting ${realFiles.length} real source files with TypeScript's own printer is a refactoring for each`, () => {
    const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
    const wrong: string[] = [];
    for (const file of realFiles) {
      const text = readFileSync(file, 'utf8');
      const reprinted = printer.printFile(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
      assert.notEqual(reprinted, text);
      const verdict = syntaxTreeRule('.ts', text, reprinted);
      if (verdict.class !== 'AST_REFACTOR') wrong.push(`${file}: ${verdict.reason}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('one flipped comparison in a real file is evolution, naming the function', () => {
    const file = join(SRC, 'core', 'changeClass', 'classifyChange.ts');
    const text = readFileSync(file, 'utf8');
    const changed = text.replace('before.length > MAX_CLASSIFIED_CHARS', 'before.length >= MAX_CLASSIFIED_CHARS');
    assert.notEqual(changed, text);
    const verdict = syntaxTreeRule('.ts', text, changed);
    assert.equal(verdict.class, 'INTENT_EVOLUTION');
    assert.match(verdict.reason, /changes `classifyChange`/);
  });
});
