import * as vscode from 'vscode';

export const VIRTUAL_SCHEME = 'intent-governor';
/** Documents kept for reopening; old approvals and trace views are dropped first. */
const MAX_DOCUMENTS = 64;

/**
 * Read-only documents the extension shows (both sides of an approval diff, the trace table). A content
 * provider's documents cannot be edited or saved, which is the point: nobody mistakes a preview for the file.
 */
export class VirtualDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration: vscode.Disposable;
  readonly onDidChange = this.changed.event;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(VIRTUAL_SCHEME, this);
  }

  /** Stores content under a path that ends in the real file name, so the editor picks the right language. */
  set(path: string, content: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: VIRTUAL_SCHEME, path: path.startsWith('/') ? path : `/${path}` });
    const key = uri.toString();
    this.contents.delete(key);
    this.contents.set(key, content);
    if (this.contents.size > MAX_DOCUMENTS) this.contents.delete(this.contents.keys().next().value as string);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '(this preview is no longer available)';
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
