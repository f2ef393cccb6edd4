import type * as TS from 'typescript';
import { DeclarationOrder, type Placement } from './declarationOrder';
import { ScopeNames } from './scopeNames';

export interface CanonicalOptions {
  /** False when code can reach locals by name at run time (direct `eval`, `with`): names are then kept. */
  renameLocals: boolean;
  /** Leave out function bodies and value initializers: what a caller of a declaration can see. */
  signatureOnly?: boolean;
}

/** `full` numbers each local; `shape` writes every local as `_`, a key that survives renames, to sort by. */
type Mode = 'full' | 'shape';

/** A name whose text is meaning (an enum member, a parameter property): never renamed, even inside a function. */
const KEEP = Symbol('keep');
/** Bound here, number not assigned yet (the statements are being put in order first). */
const PENDING = Symbol('pending');

interface Scope {
  parent?: Scope;
  names: Map<string, string | typeof KEEP | typeof PENDING>;
}

/** `%` cannot occur in an identifier, so a numbered local never equals a real name. */
const LOCAL = '%';

/** Properties of a node that are syntax but not child nodes. */
const PRIMITIVE_KEYS = ['operator', 'token', 'keywordToken', 'isTypeOnly', 'phaseModifier', 'isExportEquals', 'isTypeOf'];

/**
 * Prints a syntax tree as text that two versions of a file share exactly when they differ only in what a
 * refactoring may change: layout, comments, redundant parentheses, quotes, locals renamed consistently, and
 * the order of declarations whose order cannot matter (declarationOrder.ts: function declarations, types,
 * imports, methods anywhere; constants and classes whose definition runs nothing, among themselves).
 *
 * Names declared at the top of a module are printed as they are (they are the module's API, or reachable by
 * it); names declared inside a function, block or type's parameters are numbered in declaration order,
 * after hoisted declarations were sorted by their shape, so a rename and a move together still match.
 */
export class CanonicalTree {
  private readonly names: ScopeNames;
  private readonly order: DeclarationOrder;
  private readonly k: typeof TS.SyntaxKind;
  private readonly shapes = new WeakMap<TS.Node, string>();
  private readonly literalSlots: Map<TS.SyntaxKind, Set<string>>;
  private counter = 0;

  constructor(
    private readonly ts: typeof TS,
    private readonly options: CanonicalOptions,
  ) {
    this.names = new ScopeNames(ts);
    this.order = new DeclarationOrder(ts);
    this.k = ts.SyntaxKind;
    const k = this.k;
    // Identifier slots that hold a property, member, label or export name: text that is meaning, not a binding.
    this.literalSlots = new Map<TS.SyntaxKind, Set<string>>([
      [k.PropertyAccessExpression, new Set(['name'])],
      [k.QualifiedName, new Set(['right'])],
      [k.PropertyAssignment, new Set(['name'])],
      [k.MethodDeclaration, new Set(['name'])],
      [k.MethodSignature, new Set(['name'])],
      [k.PropertyDeclaration, new Set(['name'])],
      [k.PropertySignature, new Set(['name'])],
      [k.GetAccessor, new Set(['name'])],
      [k.SetAccessor, new Set(['name'])],
      [k.EnumMember, new Set(['name'])],
      [k.BindingElement, new Set(['propertyName'])],
      [k.ImportSpecifier, new Set(['propertyName'])],
      [k.ExportSpecifier, new Set(['propertyName', 'name'])],
      [k.NamespaceExport, new Set(['name'])],
      [k.JsxAttribute, new Set(['name'])],
      [k.JsxNamespacedName, new Set(['namespace', 'name'])],
      [k.LabeledStatement, new Set(['label'])],
      [k.BreakStatement, new Set(['label'])],
      [k.ContinueStatement, new Set(['label'])],
      [k.MetaProperty, new Set(['name'])],
      [k.NamedTupleMember, new Set(['name'])],
      [k.ImportAttribute, new Set(['name'])],
      [k.ImportType, new Set(['qualifier'])],
    ]);
  }

  /** The canonical text of a whole file, or of one statement printed on its own (module scope around it). */
  print(node: TS.Node): string {
    return this.node(node, { names: new Map() }, 'full');
  }

  private node(node: TS.Node, scope: Scope, mode: Mode): string {
    const ts = this.ts;
    const k = this.k;
    switch (node.kind) {
      case k.ParenthesizedExpression:
        return this.node((node as TS.ParenthesizedExpression).expression, scope, mode);
      case k.ParenthesizedType:
        return this.node((node as TS.ParenthesizedTypeNode).type, scope, mode);
      case k.Identifier:
        return this.resolve((node as TS.Identifier).text, scope, mode);
      case k.PrivateIdentifier:
        return (node as TS.PrivateIdentifier).text;
      case k.StringLiteral:
      case k.NumericLiteral:
      case k.BigIntLiteral:
      case k.RegularExpressionLiteral:
        return `${node.kind}${JSON.stringify((node as TS.LiteralLikeNode).text)}`;
      case k.NoSubstitutionTemplateLiteral:
      case k.TemplateHead:
      case k.TemplateMiddle:
      case k.TemplateTail: {
        // Raw text: a tagged template (String.raw) sees escapes as written.
        const part = node as TS.TemplateLiteralLikeNode;
        return `${node.kind}${JSON.stringify(part.rawText ?? part.text)}`;
      }
      case k.JsxText:
        return `${node.kind}${JSON.stringify(jsxText((node as TS.JsxText).text))}`;
      case k.ShorthandPropertyAssignment: {
        // `{ a }` is `{ a: a }`: the property keeps its name, the value is the (renamable) variable.
        const shorthand = node as TS.ShorthandPropertyAssignment;
        const init = shorthand.objectAssignmentInitializer ? ` init:${this.node(shorthand.objectAssignmentInitializer, scope, mode)}` : '';
        return `(${k.PropertyAssignment} name:=${shorthand.name.text} initializer:${this.resolve(shorthand.name.text, scope, mode)}${init})`;
      }
      case k.BindingElement: {
        const element = node as TS.BindingElement;
        if (!element.propertyName && !element.dotDotDotToken && ts.isIdentifier(element.name) && node.parent && ts.isObjectBindingPattern(node.parent)) {
          // `const { a } = o` is `const { a: a } = o`, as above.
          const init = element.initializer ? ` initializer:${this.node(element.initializer, scope, mode)}` : '';
          return `(${k.BindingElement} propertyName:=${element.name.text} name:${this.resolve(element.name.text, scope, mode)}${init})`;
        }
        break;
      }
      default:
        break;
    }
    if (mode === 'shape') {
      const known = this.shapes.get(node);
      if (known !== undefined) return known;
    }
    const inner = this.enterScope(node, scope, mode);
    const text = this.generic(node, scope, inner ?? scope, mode);
    if (mode === 'shape') this.shapes.set(node, text);
    return text;
  }

  private generic(node: TS.Node, outer: Scope, inner: Scope, mode: Mode): string {
    const ts = this.ts;
    const parts: string[] = [String(node.kind)];
    const record = node as unknown as Record<string, unknown>;
    for (const key of PRIMITIVE_KEYS) {
      const value = record[key];
      if (typeof value === 'number' || typeof value === 'boolean') parts.push(`${key}=${value}`);
    }
    if (ts.isVariableDeclarationList(node)) parts.push(`decl=${node.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const | ts.NodeFlags.Using)}`);
    if (ts.isModuleDeclaration(node)) parts.push(`global=${node.flags & ts.NodeFlags.GlobalAugmentation}`);
    const children = new Set<unknown>();
    ts.forEachChild(
      node,
      (child) => void children.add(child),
      (array) => void children.add(array),
    );
    const slots = this.literalSlots.get(node.kind);
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (!value || typeof value !== 'object' || !children.has(value)) continue;
      if (node.kind === this.k.SourceFile && key !== 'statements') continue;
      if (this.options.signatureOnly && this.hiddenFromCallers(node, key)) continue;
      const scope = this.scopeFor(node, key, outer, inner);
      if (Array.isArray(value)) {
        parts.push(`${key}:[${this.list(node, key, value as unknown as TS.NodeArray<TS.Node>, scope, mode).join(',')}]`);
      } else {
        const child = value as TS.Node;
        const literal = (ts.isIdentifier(child) && slots?.has(key)) || (key === 'tagName' && ts.isIdentifier(child) && /^[a-z]|-/.test(child.text));
        parts.push(`${key}:${literal ? `=${(child as TS.Identifier).text}` : this.child(node, key, child, scope, mode)}`);
      }
    }
    return `(${parts.join(' ')})`;
  }

  private child(parent: TS.Node, key: string, child: TS.Node, scope: Scope, mode: Mode): string {
    // A function's body block shares the function's scope (its `var`s and parameters live there).
    if (key === 'body' && this.names.isFunctionLike(parent) && this.ts.isBlock(child)) {
      return `(${child.kind} statements:[${this.list(child, 'statements', child.statements, scope, mode).join(',')}])`;
    }
    return this.node(child, scope, mode);
  }

  /** A declaration's name and decorators belong to the scope around it; the rest to its own scope. */
  private scopeFor(node: TS.Node, key: string, outer: Scope, inner: Scope): Scope {
    if (key === 'modifiers') return outer;
    if (key === 'name' && !this.ts.isFunctionExpression(node) && !this.ts.isClassExpression(node)) return outer;
    return inner;
  }

  private list(owner: TS.Node, key: string, array: TS.NodeArray<TS.Node>, scope: Scope, mode: Mode): string[] {
    const ts = this.ts;
    let items: readonly TS.Node[] = array;
    if (key === 'statements' && !ts.isCaseOrDefaultClause(owner)) items = this.ordered(array, scope, (s) => this.order.statement(s));
    else if (key === 'members' && ts.isClassLike(owner)) items = this.ordered(array, scope, (m) => (this.options.signatureOnly ? 'hoisted' : this.order.member(m)));
    else if (key === 'members' && (ts.isInterfaceDeclaration(owner) || ts.isTypeLiteralNode(owner))) items = this.ordered(array, scope, (m) => (ts.isPropertySignature(m) ? 'hoisted' : 'fixed'));
    if (this.options.signatureOnly && key === 'members') items = items.filter((m) => !this.isPrivateMember(m));
    const printed: string[] = [];
    for (const item of items) {
      if (item.kind === this.k.EmptyStatement || item.kind === this.k.SemicolonClassElement) continue;
      if (ts.isJsxText(item) && jsxText(item.text) === '') continue;
      printed.push(this.node(item, scope, mode));
    }
    return printed;
  }

  /**
   * The order a list is compared in: hoisted items first, then the rest as written, except that each run of
   * inert items between two fixed ones is sorted. Sorting is by shape (which survives renames); equal shapes,
   * and any group where a name is declared twice (the later one wins), keep their written order.
   */
  private ordered(array: readonly TS.Node[], scope: Scope, placement: (node: TS.Node) => Placement): TS.Node[] {
    const hoisted: TS.Node[] = [];
    const rest: TS.Node[] = [];
    let run: TS.Node[] = [];
    const flush = () => {
      rest.push(...this.byShape(run, scope));
      run = [];
    };
    for (const item of array) {
      const place = placement(item);
      if (place === 'hoisted') hoisted.push(item);
      else if (place === 'inert') run.push(item);
      else {
        flush();
        rest.push(item);
      }
    }
    flush();
    return [...this.byShape(hoisted, scope), ...rest];
  }

  private byShape(items: TS.Node[], scope: Scope): TS.Node[] {
    if (items.length < 2 || this.order.redeclares(items)) return items;
    const keyed = items.map((node, index) => ({ node, index, shape: this.node(node, scope, 'shape') }));
    keyed.sort((a, b) => (a.shape < b.shape ? -1 : a.shape > b.shape ? 1 : a.index - b.index));
    return keyed.map((entry) => entry.node);
  }

  private isPrivateMember(node: TS.Node): boolean {
    const ts = this.ts;
    if (ts.isClassStaticBlockDeclaration(node)) return true;
    const named = node as TS.Node & { name?: TS.Node };
    if (named.name && ts.isPrivateIdentifier(named.name)) return true;
    return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === this.k.PrivateKeyword);
  }

  /** In signature mode: what a caller cannot see (bodies, field and value initializers). */
  private hiddenFromCallers(node: TS.Node, key: string): boolean {
    const ts = this.ts;
    if (key === 'body' && this.names.isFunctionLike(node)) return true;
    if (key === 'initializer' && ts.isPropertyDeclaration(node)) return true;
    if (key === 'initializer' && ts.isVariableDeclaration(node)) {
      const init = node.initializer;
      return !(init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isClassExpression(init)));
    }
    return false;
  }

  /** The scope a node opens, with its names declared; undefined when it opens none. */
  private enterScope(node: TS.Node, outer: Scope, mode: Mode): Scope | undefined {
    const ts = this.ts;
    const names = this.names;
    if (names.isFunctionLike(node)) {
      const scope: Scope = { parent: outer, names: new Map() };
      const typeParameters = 'typeParameters' in node ? node.typeParameters : undefined;
      for (const parameter of typeParameters ?? []) this.bind(scope, parameter.name.text, mode);
      if (ts.isFunctionExpression(node) && node.name) this.bind(scope, node.name.text, mode);
      for (const parameter of 'parameters' in node ? node.parameters : []) {
        for (const name of names.bindingNames(parameter.name)) {
          if (name === 'this') continue;
          if (names.isParameterProperty(parameter)) scope.names.set(name, KEEP);
          else this.bind(scope, name, mode);
        }
      }
      const body = 'body' in node ? node.body : undefined;
      if (body && ts.isBlock(body)) this.bindStatements(body.statements, scope, mode, true);
      return scope;
    }
    if (ts.isBlock(node) || ts.isModuleBlock(node)) {
      if (ts.isModuleBlock(node)) return undefined; // a namespace's names are its API, like a module's
      const scope: Scope = { parent: outer, names: new Map() };
      this.bindStatements(node.statements, scope, mode, false);
      return scope;
    }
    if (ts.isForStatement(node) || ts.isForInStatement(node) || ts.isForOfStatement(node)) {
      const init = node.initializer;
      if (!init || !ts.isVariableDeclarationList(init) || !names.isLexicalList(init)) return undefined;
      const scope: Scope = { parent: outer, names: new Map() };
      for (const declaration of init.declarations) for (const name of names.bindingNames(declaration.name)) this.bind(scope, name, mode);
      return scope;
    }
    if (ts.isCatchClause(node)) {
      const scope: Scope = { parent: outer, names: new Map() };
      for (const name of names.bindingNames(node.variableDeclaration?.name)) this.bind(scope, name, mode);
      return scope;
    }
    if (ts.isCaseBlock(node)) {
      const scope: Scope = { parent: outer, names: new Map() };
      for (const clause of node.clauses) for (const statement of clause.statements) for (const name of names.lexicalNames(statement)) this.bind(scope, name, mode);
      return scope;
    }
    if (ts.isClassLike(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
      const scope: Scope = { parent: outer, names: new Map() };
      for (const parameter of node.typeParameters ?? []) this.bind(scope, parameter.name.text, mode);
      if (ts.isClassExpression(node) && node.name) this.bind(scope, node.name.text, mode);
      return scope;
    }
    if (ts.isEnumDeclaration(node)) {
      // Inside an enum a bare member name means the member, whatever locals are called.
      const scope: Scope = { parent: outer, names: new Map() };
      for (const member of node.members) if (ts.isIdentifier(member.name)) scope.names.set(member.name.text, KEEP);
      return scope;
    }
    return undefined;
  }

  /**
   * Declares what a statement list declares (with `var`s when it is a function's body), numbered in the
   * order the list is compared in, so the numbers do not depend on where hoisted declarations were written.
   */
  private bindStatements(statements: readonly TS.Node[], scope: Scope, mode: Mode, functionBody: boolean): void {
    const declared = (statement: TS.Node) => [...this.names.lexicalNames(statement), ...(functionBody ? this.names.varNames(statement) : [])];
    for (const statement of statements) for (const name of declared(statement)) if (!scope.names.has(name)) scope.names.set(name, PENDING);
    if (mode === 'shape') return;
    for (const statement of this.ordered(statements, scope, (s) => this.order.statement(s))) {
      for (const name of declared(statement)) if (scope.names.get(name) === PENDING) this.bind(scope, name, mode, true);
    }
  }

  private bind(scope: Scope, name: string, mode: Mode, renumber = false): void {
    if (scope.names.has(name) && !renumber) return;
    scope.names.set(name, mode === 'shape' || !this.options.renameLocals ? PENDING : `${LOCAL}${++this.counter}`);
  }

  private resolve(name: string, scope: Scope, mode: Mode): string {
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const bound = s.names.get(name);
      if (bound === undefined) continue;
      if (bound === KEEP) return name;
      if (mode === 'shape') return '_';
      return bound === PENDING ? (this.options.renameLocals ? '_' : name) : bound;
    }
    return name;
  }
}

/** JSX text as React renders it: lines trimmed where they meet a line break, joined by one space. */
export function jsxText(text: string): string {
  const lines = text.split(/\r\n|\n|\r/);
  let lastNonEmpty = 0;
  lines.forEach((line, i) => {
    if (/[^ \t]/.test(line)) lastNonEmpty = i;
  });
  let out = '';
  lines.forEach((line, i) => {
    let trimmed = line.replace(/\t/g, ' ');
    if (i !== 0) trimmed = trimmed.replace(/^ +/, '');
    if (i !== lines.length - 1) trimmed = trimmed.replace(/ +$/, '');
    if (trimmed) out += i === lastNonEmpty ? trimmed : `${trimmed} `;
  });
  return out;
}
