import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { driftedLines } from '../../core/trace/blameDrift';
import { blameFile, type BlameLine } from '../../core/trace/traceBlame';
import { traceFilePath } from '../../core/trace/traceFiles';
import type { InspectorModel } from '../inspector/inspectorModel';

/** Blame hashes every window of the file once per range length; past this, decorating would lag typing. */
const MAX_LINES = 20_000;
const TYPING_DELAY_MS = 300;

/**
 * Intent blame in the editor: lines a trace record explains get a coloured left border and, on the first
 * line of each block, the intent as faint trailing text; lines a record changed that have been edited
 * since (drifted) get a dashed border in the warning colour. Hovering either shows intent, agent, model and
 * time, with a link that opens the record in the Trace Inspector. Recomputed when the editor, the document
 * or the trace changes; `intentGovernor.toggleBlame` turns it off and on.
 */
export class BlameDecorations implements vscode.Disposable {
  private enabled = true;
  private readonly attributed = vscode.window.createTextEditorDecorationType({
    borderColor: new vscode.ThemeColor('editorInfo.foreground'),
    borderStyle: 'solid',
    borderWidth: '0 0 0 2px',
    overviewRulerColor: new vscode.ThemeColor('editorInfo.foreground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    isWholeLine: true,
  });
  private readonly drifted = vscode.window.createTextEditorDecorationType({
    borderColor: new vscode.ThemeColor('editorWarning.foreground'),
    borderStyle: 'dashed',
    borderWidth: '0 0 0 2px',
    overviewRulerColor: new vscode.ThemeColor('editorWarning.foreground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    isWholeLine: true,
  });
  private readonly disposables: vscode.Disposable[] = [this.attributed, this.drifted];
  private readonly generation = new Map<string, number>();
  private typingTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly root: string,
    model: InspectorModel,
  ) {
    const all = () => this.updateVisible();
    this.disposables.push(
      vscode.window.onDidChangeVisibleTextEditors(all),
      vscode.workspace.onDidSaveTextDocument(all),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.typingTimer) clearTimeout(this.typingTimer);
        this.typingTimer = setTimeout(() => {
          for (const editor of vscode.window.visibleTextEditors) if (editor.document === event.document) void this.update(editor);
        }, TYPING_DELAY_MS);
      }),
      model.onDidChangeLogs(all),
    );
    all();
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  toggle(): boolean {
    this.enabled = !this.enabled;
    this.updateVisible();
    return this.enabled;
  }

  private updateVisible(): void {
    for (const editor of vscode.window.visibleTextEditors) void this.update(editor);
  }

  private async update(editor: vscode.TextEditor): Promise<void> {
    const document = editor.document;
    const rel = this.relativePath(document.uri);
    if (!this.enabled || !rel || document.lineCount > MAX_LINES) {
      editor.setDecorations(this.attributed, []);
      editor.setDecorations(this.drifted, []);
      return;
    }
    const key = document.uri.toString();
    const generation = (this.generation.get(key) ?? 0) + 1;
    this.generation.set(key, generation);
    const tracePath = traceFilePath(this.root);
    const blame = await blameFile(tracePath, rel, document.getText()).catch(() => [] as BlameLine[]);
    const drift = await driftedLines(tracePath, rel, blame).catch(() => []);
    // A newer update started while this one read the trace: let it publish.
    if (this.generation.get(key) !== generation) return;
    const attributed: vscode.DecorationOptions[] = [];
    blame.forEach((line, i) => {
      if (!line.recordId) return;
      const first = blame[i - 1]?.recordId !== line.recordId;
      attributed.push({
        range: lineRange(document, line.line),
        hoverMessage: hover(`Intent **${line.intentId ?? '(none)'}**`, line.recordId, line.agent, line.model, line.timestamp),
        renderOptions: first ? { after: { contentText: `  ${line.intentId ?? ''} · ${line.agent ?? ''}`, color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic' } } : undefined,
      });
    });
    const drifted: vscode.DecorationOptions[] = drift.map((line) => ({
      range: lineRange(document, line.line),
      hoverMessage: hover(`Changed since intent **${line.intentId ?? '(none)'}** wrote it (drifted)`, line.recordId, line.agent, undefined, line.timestamp),
    }));
    editor.setDecorations(this.attributed, attributed);
    editor.setDecorations(this.drifted, drifted);
  }

  /** Workspace-relative POSIX path of a file in the governed folder, outside `.orchestration/`; else undefined. */
  private relativePath(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== 'file') return undefined;
    const rel = relative(this.root, uri.fsPath);
    if (!rel || rel.startsWith('..') || rel.startsWith('.orchestration')) return undefined;
    return rel.split(sep).join('/');
  }

  dispose(): void {
    if (this.typingTimer) clearTimeout(this.typingTimer);
    for (const d of this.disposables) d.dispose();
  }
}

function lineRange(document: vscode.TextDocument, line: number): vscode.Range {
  const index = Math.min(line - 1, document.lineCount - 1);
  return new vscode.Range(index, 0, index, document.lineAt(index).text.length);
}

/** The hover: who and when, plus a command link the markdown may run (only that one command is trusted). */
function hover(title: string, recordId: string | undefined, agent?: string, model?: string, timestamp?: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: ['intentGovernor.openInspector'] };
  md.appendMarkdown(`${title}  \n`);
  md.appendMarkdown(`agent \`${agent ?? 'unknown'}\` · model \`${model ?? 'unknown'}\` · ${timestamp ?? ''}  \n`);
  if (recordId) {
    const args = encodeURIComponent(JSON.stringify([{ recordId }]));
    md.appendMarkdown(`[Open record in Trace Inspector](command:intentGovernor.openInspector?${args})`);
  }
  return md;
}
