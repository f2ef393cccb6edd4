import * as vscode from 'vscode';
import type { IntentsFileProblem, IntentsSnapshot } from '../../core/intents/intent';

/** Intents-file problems as Diagnostics: 0-based, empty ranges (the editor underlines the word there). */
export function problemDiagnostics(problems: readonly IntentsFileProblem[]): vscode.Diagnostic[] {
  return problems.map((problem) => {
    const at = new vscode.Position(Math.max(0, problem.line - 1), Math.max(0, problem.column - 1));
    const diagnostic = new vscode.Diagnostic(new vscode.Range(at, at), problem.message, vscode.DiagnosticSeverity.Error);
    diagnostic.source = 'Intent Governor';
    return diagnostic;
  });
}

/** The Problems-panel entries for the intents file: set while it is invalid, cleared once it is valid. */
export class IntentDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('intent-governor');

  constructor(private readonly file: vscode.Uri) {}

  publish(snapshot: IntentsSnapshot): void {
    if (snapshot.valid) this.collection.delete(this.file);
    else this.collection.set(this.file, problemDiagnostics(snapshot.problems));
  }

  dispose(): void {
    this.collection.dispose();
  }
}
