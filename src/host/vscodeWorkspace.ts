import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { ioToolError } from '../core/ioError';
import { createNodeWorkspace } from '../core/nodeWorkspace';
import { toolError, type ToolError } from '../core/toolError';
import type { ReplaceOptions, Workspace } from '../core/workspace';

/**
 * The Workspace port inside VS Code. Reads and most writes are the Node adapter's (disk is the saved state;
 * atomic temp + fsync + rename). Two things differ: a file with unsaved edits in an editor reports
 * `hasUnsavedChanges`, so the stale guard refuses instead of overwriting a human's work; and a write to a
 * file open in an editor goes through a WorkspaceEdit and a save, so the editor shows it and Undo works.
 */
export async function createVscodeWorkspace(root: string): Promise<Workspace> {
  const disk = await createNodeWorkspace(root);
  return {
    ...disk,
    async hasUnsavedChanges(absPath) {
      // Dirty ones first: a realpath per open document on every call grew with each file an agent's edits opened.
      return openDocuments(absPath, (doc) => doc.isDirty).length > 0;
    },
    async replaceFile(absPath, data, options) {
      // Through the editor only when exactly one document shows the file; otherwise the editors reload from disk.
      const documents = openDocuments(absPath);
      const document = documents.length === 1 ? documents[0] : undefined;
      const text = document && editorText(document, data);
      if (!document || text === undefined) return disk.replaceFile(absPath, data, options);
      return replaceInEditor(document, text, data, options, () => disk.replaceFile(absPath, data));
    },
  };
}

/**
 * The open documents for a file (of those `only` keeps). The core hands us realpaths; an editor may have opened the same file through
 * a symlink, so documents are compared by their realpath too (a few microseconds each). Missing one would let
 * an agent write under a human's unsaved edits.
 */
function openDocuments(absPath: string, only: (doc: vscode.TextDocument) => boolean = () => true): vscode.TextDocument[] {
  const key = pathKey(absPath);
  return vscode.workspace.textDocuments.filter(
    (doc) => only(doc) && doc.uri.scheme === 'file' && (pathKey(doc.uri.fsPath) === key || pathKey(realpathOrSelf(doc.uri.fsPath)) === key),
  );
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path; // not on disk (yet, or any more): only its own path can match
  }
}

function pathKey(path: string): string {
  return process.platform === 'win32' || process.platform === 'darwin' ? path.toLowerCase() : path;
}

/**
 * The text to put in the editor, or undefined when an editor save could not reproduce `data` byte for byte:
 * not UTF-8, a BOM, a non-UTF-8 document encoding, or mixed line endings (the editor normalises them).
 */
function editorText(document: vscode.TextDocument, data: Uint8Array): string | undefined {
  if (document.encoding !== 'utf8') return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    return undefined;
  }
  if (text.startsWith('\uFEFF') || text.includes('\0')) return undefined;
  return eolOf(text) === 'mixed' ? undefined : text;
}

function eolOf(text: string): vscode.EndOfLine | 'mixed' | undefined {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const cr = (text.match(/\r/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length;
  if (cr === 0 && lf === 0) return undefined;
  if (crlf === cr && crlf === lf) return vscode.EndOfLine.CRLF;
  if (cr === 0) return vscode.EndOfLine.LF;
  return 'mixed';
}

async function replaceInEditor(
  document: vscode.TextDocument,
  text: string,
  data: Uint8Array,
  options: ReplaceOptions | undefined,
  writeToDisk: () => Promise<ToolError | undefined>,
): Promise<ToolError | undefined> {
  const rel = vscode.workspace.asRelativePath(document.uri, false);
  try {
    const veto = await options?.beforeReplace?.();
    if (veto) return veto;
    const edit = new vscode.WorkspaceEdit();
    const eol = eolOf(text);
    const whole = new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end);
    const edits = [vscode.TextEdit.replace(whole, text)];
    if (eol !== undefined && eol !== 'mixed' && eol !== document.eol) edits.push(vscode.TextEdit.setEndOfLine(eol));
    edit.set(document.uri, edits);
    const original = document.getText();
    if (!(await vscode.workspace.applyEdit(edit))) return editorFailed(rel, 'the editor refused the edit; nothing changed');
    if (!(await document.save())) {
      // Not on disk, so its record is voided: the buffer must not keep a change a later save would land untraced.
      const undo = new vscode.WorkspaceEdit();
      undo.replace(document.uri, new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end), original);
      await vscode.workspace.applyEdit(undo);
      return editorFailed(rel, 'the editor could not save it; the change was taken back out of the editor');
    }
    // Save participants (format on save, trim whitespace, final newline) may have changed the bytes. What was
    // checked, approved and traced is `data`, so the disk must hold exactly that; the editor reloads it. The
    // change is on disk from here on, so a failure to put back the exact bytes is no reason to call it undone.
    const saved = await readFile(document.uri.fsPath).catch(() => undefined);
    if (saved === undefined || !Buffer.from(saved).equals(Buffer.from(data))) await writeToDisk();
    return undefined;
  } catch (error) {
    return ioToolError(error, 'write', rel);
  }
}

function editorFailed(rel: string, why: string): ToolError {
  return toolError('HOOK_ERROR', `Could not write ${rel} through its open editor: ${why}. Tell the human, then read_file it again before retrying.`, {
    path: rel,
    io_error: true,
  });
}
