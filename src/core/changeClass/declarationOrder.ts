import type * as TS from 'typescript';
import { ScopeNames } from './scopeNames';

/** Where a list item may move without changing what runs. */
export type Placement =
  /** Hoisted or type-only: anywhere in its list. */
  | 'hoisted'
  /** Runs, but with no effect: may swap with its neighbours of the same kind, not past other code. */
  | 'inert'
  /** Runs with effects, or we cannot tell: stays where it is. */
  | 'fixed';

/**
 * The rules for "declarations moved": which statements and class members a refactoring may reorder. When in
 * doubt an item is `fixed`, so a move past it reads as evolution.
 */
export class DeclarationOrder {
  private readonly k: typeof TS.SyntaxKind;
  private readonly names: ScopeNames;

  constructor(private readonly ts: typeof TS) {
    this.k = ts.SyntaxKind;
    this.names = new ScopeNames(ts);
  }

  statement(node: TS.Node): Placement {
    const ts = this.ts;
    if (ts.isFunctionDeclaration(node)) return node.body ? 'hoisted' : 'fixed'; // overloads keep their order
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return 'hoisted';
    // A bare `import './polyfill'` runs for its effects, and effects have an order.
    if (ts.isImportDeclaration(node)) return node.importClause ? 'hoisted' : 'fixed';
    if (ts.isExportDeclaration(node)) return 'hoisted';
    if (this.hasModifier(node, this.k.DeclareKeyword)) return 'hoisted';
    if (ts.isVariableStatement(node)) return node.declarationList.declarations.every((d) => ts.isIdentifier(d.name) && (!d.initializer || this.inertExpression(d.initializer))) ? 'inert' : 'fixed';
    if (ts.isClassDeclaration(node)) return this.inertClass(node) ? 'inert' : 'fixed';
    return 'fixed';
  }

  /** Methods, accessors and the constructor sit on the prototype; fields initialise in order (and enumerate so). */
  member(node: TS.Node): Placement {
    const ts = this.ts;
    if (!(ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node) || ts.isConstructorDeclaration(node))) return 'fixed';
    if (!node.body) return 'fixed';
    // A computed name is evaluated when the class is, and decorators run then too: both in order.
    if (node.name && ts.isComputedPropertyName(node.name)) return 'fixed';
    return this.decorated(node) ? 'fixed' : 'hoisted';
  }

  /** Names (or member keys) the items declare: a name declared twice means the later one wins, so order matters. */
  redeclares(items: readonly TS.Node[]): boolean {
    const seen = new Set<string>();
    for (const item of items) {
      for (const name of this.declared(item)) {
        if (seen.has(name)) return true;
        seen.add(name);
      }
    }
    return false;
  }

  private declared(node: TS.Node): string[] {
    const ts = this.ts;
    if (ts.isVariableStatement(node)) return node.declarationList.declarations.flatMap((d) => this.names.bindingNames(d.name));
    if (ts.isClassElement(node) || ts.isTypeElement(node)) {
      const name = node.name && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isNumericLiteral(node.name)) ? node.name.text : ts.isConstructorDeclaration(node) ? 'constructor' : '';
      const kind = ts.isGetAccessorDeclaration(node) ? 'get ' : ts.isSetAccessorDeclaration(node) ? 'set ' : '';
      return [`${this.hasModifier(node, this.k.StaticKeyword) ? 'static ' : ''}${kind}${name}`];
    }
    return this.names.lexicalNames(node);
  }

  /** Evaluating it has no effect and reads no binding: a literal, a function, an object or array of such. */
  private inertExpression(node: TS.Expression): boolean {
    const ts = this.ts;
    const k = this.k;
    switch (node.kind) {
      case k.StringLiteral:
      case k.NumericLiteral:
      case k.BigIntLiteral:
      case k.NoSubstitutionTemplateLiteral:
      case k.RegularExpressionLiteral:
      case k.TrueKeyword:
      case k.FalseKeyword:
      case k.NullKeyword:
      case k.ArrowFunction:
      case k.FunctionExpression:
        return true;
      case k.PrefixUnaryExpression:
        return this.inertExpression((node as TS.PrefixUnaryExpression).operand);
      case k.ParenthesizedExpression:
      case k.AsExpression:
      case k.SatisfiesExpression:
      case k.NonNullExpression:
      case k.TypeAssertionExpression:
        return this.inertExpression((node as TS.AsExpression).expression);
      case k.ArrayLiteralExpression:
        return (node as TS.ArrayLiteralExpression).elements.every((e) => !ts.isSpreadElement(e) && (ts.isOmittedExpression(e) || this.inertExpression(e)));
      case k.ObjectLiteralExpression:
        return (node as TS.ObjectLiteralExpression).properties.every((p) => {
          if (p.name && ts.isComputedPropertyName(p.name)) return false;
          if (ts.isPropertyAssignment(p)) return this.inertExpression(p.initializer);
          return ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p);
        });
      default:
        return false;
    }
  }

  /** A class whose definition runs nothing: no `extends`, decorators, static initializers or computed names. */
  private inertClass(node: TS.ClassDeclaration): boolean {
    const ts = this.ts;
    if (node.heritageClauses?.some((h) => h.token === this.k.ExtendsKeyword) || this.decorated(node)) return false;
    return node.members.every((m) => {
      if (this.decorated(m) || (m.name && ts.isComputedPropertyName(m.name)) || ts.isClassStaticBlockDeclaration(m)) return false;
      return !(ts.isPropertyDeclaration(m) && this.hasModifier(m, this.k.StaticKeyword) && m.initializer && !this.inertExpression(m.initializer));
    });
  }

  private decorated(node: TS.Node): boolean {
    return this.ts.canHaveDecorators(node) && (this.ts.getDecorators(node) ?? []).length > 0;
  }

  private hasModifier(node: TS.Node, kind: TS.SyntaxKind): boolean {
    return this.ts.canHaveModifiers(node) && (this.ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
  }
}
