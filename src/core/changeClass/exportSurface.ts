import type * as TS from 'typescript';
import { CanonicalTree, type CanonicalOptions } from './canonicalTree';
import { ScopeNames } from './scopeNames';

/** What a module offers (each export's signature) and what it holds (each top-level name's full text). */
export interface ModuleOutline {
  exports: Map<string, string>;
  declarations: Map<string, string>;
}

/** The outline of a parsed file; each declaration is printed on its own, so one change does not renumber another. */
export function moduleOutline(ts: typeof TS, file: TS.SourceFile, renameLocals: boolean): ModuleOutline {
  const print = (node: TS.Node, options: Partial<CanonicalOptions> = {}) => new CanonicalTree(ts, { renameLocals, ...options }).print(node);
  const signature = (node: TS.Node) => print(node, { signatureOnly: true });
  const scopeNames = new ScopeNames(ts);
  const declarations = new Map<string, string>();
  const signatures = new Map<string, string>();
  const exports = new Map<string, string>();
  const named = (name: string, text: string, sig: string) => {
    // Overloads and merged declarations share a name: their texts join in written order.
    declarations.set(name, (declarations.get(name) ?? '') + text);
    signatures.set(name, (signatures.get(name) ?? '') + sig);
  };
  const exported: { name: string; local?: string; signature?: string }[] = [];
  for (const statement of file.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    const isExported = modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const isDefault = modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        for (const name of scopeNames.bindingNames(declaration.name)) {
          named(name, print(declaration), signature(declaration));
          if (isExported) exported.push({ name, local: name });
        }
      }
      continue;
    }
    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) {
      const name = statement.name && (ts.isIdentifier(statement.name) || ts.isStringLiteral(statement.name)) ? statement.name.text : 'default';
      named(name, print(statement), signature(statement));
      if (isExported) exported.push({ name: isDefault ? 'default' : name, local: name });
      continue;
    }
    if (ts.isExportAssignment(statement)) {
      exported.push({ name: statement.isExportEquals ? 'export =' : 'default', signature: print(statement.expression) });
      continue;
    }
    if (ts.isExportDeclaration(statement)) {
      const from = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      const clause = statement.exportClause;
      if (!clause) exported.push({ name: `* from '${from}'`, signature: '' });
      else if (ts.isNamespaceExport(clause)) exported.push({ name: clause.name.text, signature: `* from '${from}'` });
      else {
        for (const specifier of clause.elements) {
          const local = (specifier.propertyName ?? specifier.name).text;
          exported.push(from === undefined ? { name: specifier.name.text, local } : { name: specifier.name.text, signature: `${local} from '${from}'` });
        }
      }
    }
  }
  for (const entry of exported) exports.set(entry.name, entry.signature ?? signatures.get(entry.local ?? '') ?? `(not declared here: ${entry.local})`);
  return { exports, declarations };
}

/** One line for a person: the first difference that makes the change more than a refactoring. */
export function describeDifference(before: ModuleOutline, after: ModuleOutline): string {
  const added = [...after.exports.keys()].filter((name) => !before.exports.has(name));
  if (added.length) return `adds ${plural('export', added)} ${names(added)}`;
  const removed = [...before.exports.keys()].filter((name) => !after.exports.has(name));
  if (removed.length) return `removes ${plural('export', removed)} ${names(removed)}`;
  const changed = [...after.exports.keys()].filter((name) => before.exports.get(name) !== after.exports.get(name));
  if (changed.length) return `changes the signature of exported ${names(changed)}`;
  for (const [name, text] of after.declarations) {
    const old = before.declarations.get(name);
    if (old === undefined) return `adds \`${name}\``;
    if (old !== text) return `changes \`${name}\``;
  }
  for (const name of before.declarations.keys()) if (!after.declarations.has(name)) return `removes \`${name}\``;
  return 'changes top-level code';
}

function plural(word: string, items: string[]): string {
  return items.length === 1 ? word : `${word}s`;
}

function names(items: string[]): string {
  const shown = items.slice(0, 3).map((name) => `\`${name}\``).join(', ');
  return items.length > 3 ? `${shown} and ${items.length - 3} more` : shown;
}
