import type * as TS from 'typescript';

/**
 * Which names a piece of TypeScript/JavaScript syntax declares, and where: the facts the canonical printer
 * needs to rename a local consistently without a type checker.
 */
export class ScopeNames {
  private readonly k: typeof TS.SyntaxKind;

  constructor(private readonly ts: typeof TS) {
    this.k = ts.SyntaxKind;
  }

  /** Functions, methods, accessors, constructors and signatures: each has its own parameters and `var` scope. */
  isFunctionLike(node: TS.Node): node is TS.SignatureDeclaration | TS.ClassStaticBlockDeclaration {
    const k = this.k;
    switch (node.kind) {
      case k.FunctionDeclaration:
      case k.FunctionExpression:
      case k.ArrowFunction:
      case k.MethodDeclaration:
      case k.Constructor:
      case k.GetAccessor:
      case k.SetAccessor:
      case k.ClassStaticBlockDeclaration:
      case k.MethodSignature:
      case k.CallSignature:
      case k.ConstructSignature:
      case k.FunctionType:
      case k.ConstructorType:
      case k.IndexSignature:
        return true;
      default:
        return false;
    }
  }

  /** Every identifier a binding name (`x`, `{a, b: [c]}`, `[d, ...e]`) declares, in source order. */
  bindingNames(name: TS.BindingName | undefined): string[] {
    if (!name) return [];
    if (this.ts.isIdentifier(name)) return [name.text];
    const names: string[] = [];
    for (const element of name.elements) if (!this.ts.isOmittedExpression(element)) names.push(...this.bindingNames(element.name));
    return names;
  }

  /** `let`, `const`, `using`: block-scoped; `var` (no flag) is function-scoped. */
  isLexicalList(list: TS.VariableDeclarationList): boolean {
    return (list.flags & (this.ts.NodeFlags.Let | this.ts.NodeFlags.Const | this.ts.NodeFlags.Using)) !== 0;
  }

  /** Names a statement declares in the block it stands in: `let`/`const`, functions, classes, enums, types. */
  lexicalNames(statement: TS.Node): string[] {
    const ts = this.ts;
    if (ts.isVariableStatement(statement)) {
      const list = statement.declarationList;
      return this.isLexicalList(list) ? list.declarations.flatMap((d) => this.bindingNames(d.name)) : [];
    }
    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      return statement.name ? [statement.name.text] : [];
    }
    return [];
  }

  /** Names `var` declares anywhere in `node`, short of nested functions and classes (they have their own scope). */
  varNames(node: TS.Node): string[] {
    const ts = this.ts;
    const names: string[] = [];
    const visit = (child: TS.Node): void => {
      if (this.isFunctionLike(child) || ts.isClassLike(child)) return;
      if (ts.isVariableDeclarationList(child) && !this.isLexicalList(child)) {
        for (const declaration of child.declarations) names.push(...this.bindingNames(declaration.name));
      }
      ts.forEachChild(child, visit);
    };
    visit(node);
    return names;
  }

  /** A constructor parameter with `private`, `readonly`, … is also a property of the instance: its name is API. */
  isParameterProperty(parameter: TS.ParameterDeclaration): boolean {
    const k = this.k;
    return (parameter.modifiers ?? []).some((m) => m.kind === k.PublicKeyword || m.kind === k.PrivateKeyword || m.kind === k.ProtectedKeyword || m.kind === k.ReadonlyKeyword || m.kind === k.OverrideKeyword);
  }
}
