import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { INTENT_MAP_FILE } from '../../core/intentMap/intentMapMarkdown';
import { resolveRecordedPath } from '../../core/paths/recordedPath';
import { judgeRecordSignature } from '../../core/trace/signatureWords';
import { loadWorkspaceSigners } from '../../core/signing/workspaceSigners';
import { recordDetail } from './recordDetail';
import { governanceChainFields, traceChainFields } from '../../core/trace/traceChain';
import { readRecordAt } from './traceIndexLoader';
import type { OnlyLines } from './traceIndex';
import { linesAddedSince } from '../../core/trace/branchBase';
import { describeVerification, verifyWorkspaceLogs } from '../../core/trace/workspaceVerify';
import type { ChainStatus, HostMessage, InspectorFilter, WebviewMessage } from '../../shared/inspectorProtocol';
import type { GovernedFolder } from '../governedFolder';
import { inspectorHtml } from './inspectorHtml';
import type { InspectorModel } from './inspectorModel';

export const INSPECTOR_VIEW_TYPE = 'intentGovernor.inspector';
/** Largest page the webview may ask for: it shows ~50 rows, so this bounds one message, not the UI. */
const MAX_PAGE = 500;
/** Verify rereads both logs whole; after appends wait for a quiet moment instead of verifying per record. */
const VERIFY_DELAY_MS = 1_000;

/**
 * The trace inspector panel: one at a time, shown again rather than duplicated. It answers the webview's
 * queries from the InspectorModel's index, reads a full record only when one is opened, forwards appends
 * as they are indexed, and re-verifies both chains after the logs change.
 */
export class InspectorPanel implements vscode.Disposable {
  private static current: InspectorPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private pendingFocus: string | undefined;
  private pendingIntent: string | undefined;
  private verifyTimer: NodeJS.Timeout | undefined;
  private since: { key: string; found: Promise<{ said: string; only: OnlyLines } | string> } | undefined;

  static show(governed: GovernedFolder, model: InspectorModel, extensionUri: vscode.Uri, recordId?: string, intent?: string): InspectorPanel {
    const existing = InspectorPanel.current;
    if (existing) {
      existing.panel.reveal();
      if (recordId) existing.focus(recordId);
      if (intent) existing.post({ type: 'showIntent', intent });
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, 'Trace Inspector', vscode.ViewColumn.Active, inspectorOptions(extensionUri));
    const created = new InspectorPanel(panel, governed, model, extensionUri, recordId);
    created.pendingIntent = intent;
    return created;
  }

  /** The serializer's entry point after a window reload: the webview restores its own filter from getState. */
  static revive(panel: vscode.WebviewPanel, governed: GovernedFolder, model: InspectorModel, extensionUri: vscode.Uri): InspectorPanel {
    panel.webview.options = inspectorOptions(extensionUri);
    return new InspectorPanel(panel, governed, model, extensionUri);
  }

  static get active(): InspectorPanel | undefined {
    return InspectorPanel.current;
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly governed: GovernedFolder,
    private readonly model: InspectorModel,
    extensionUri: vscode.Uri,
    recordId?: string,
  ) {
    InspectorPanel.current = this;
    this.pendingFocus = recordId;
    panel.webview.html = inspectorHtml(panel.webview, vscode.Uri.joinPath(extensionUri, 'dist', 'webview'));
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message: WebviewMessage) => void this.receive(message)),
      model.onDidChange((result) => {
        this.post({ type: 'appended', added: result.added, total: model.index.size });
        void this.sendSummary();
        this.scheduleVerify();
      }),
    );
  }

  /** What the branch added since `ref`, computed once per ref and index size (pages of one view share it). */
  private async addedSince(ref: string): Promise<{ said: string; only: OnlyLines } | string> {
    const key = `${ref}\0${this.model.index.size}`;
    if (this.since?.key !== key) {
      const found = linesAddedSince(this.governed.services.workspace.root, ref).then(
        (lines) => (typeof lines === 'string' ? lines : { said: lines.said, only: { key, lines: { trace: lines.trace, governance: lines.governance } } }),
        (error: unknown) => `the branch's records cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.since = { key, found };
    }
    return this.since.found;
  }

  focus(recordId: string): void {
    this.post({ type: 'focus', recordId, key: this.model.index.keyOf(recordId) });
  }

  private async receive(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready': {
        await this.model.ready();
        await this.sendSummary();
        const focus = this.pendingFocus ?? (typeof message.selectedId === 'string' ? message.selectedId : undefined);
        this.pendingFocus = undefined;
        if (focus) this.focus(focus);
        if (this.pendingIntent) this.post({ type: 'showIntent', intent: this.pendingIntent });
        this.pendingIntent = undefined;
        await this.sendChain();
        return;
      }
      case 'query': {
        const filter = cleanFilter(message.filter);
        const count = Math.min(MAX_PAGE, message.count);
        if (filter.branchBase !== undefined) {
          // Lines of the logs as git sees them: the preview of the newest records does not know its line numbers.
          await this.model.ready();
          const since = await this.addedSince(filter.branchBase);
          if (typeof since === 'string') return this.post({ type: 'page', seq: message.seq, total: 0, start: 0, rows: [], partial: false, branch: { problem: since } });
          const page = this.model.index.query(filter, message.start, count, since.only);
          return this.post({ type: 'page', seq: message.seq, ...page, partial: false, branch: { said: since.said } });
        }
        const { index, partial } = this.model.current();
        this.post({ type: 'page', seq: message.seq, ...index.query(filter, message.start, count), partial });
        return;
      }
      case 'openRecord':
        return this.openRecord(message.key);
      case 'openAtRange':
        return this.openAtRange(message.path, message.startLine, message.endLine);
      case 'openIntentMap':
        return this.openIntentMap();
      case 'verify':
        return this.sendChain();
    }
  }

  private async openRecord(previewOrFullKey: number): Promise<void> {
    const key = await this.model.fullKey(previewOrFullKey);
    if (key === undefined) return;
    const row = this.model.index.row(key);
    const location = this.model.index.location(key);
    if (!row || !location) return;
    const record = await readRecordAt(this.model.loader.path(location.source), location.offset, location.bytes).catch(() => undefined);
    if (!record) return;
    // The signer is judged now, against the signers folder as it is: a key revoked since shows as revoked.
    const signers = await loadWorkspaceSigners(this.governed.services.workspace.root).catch(() => undefined);
    const fields = row.source === 'trace' ? traceChainFields : governanceChainFields;
    const signer = signers ? judgeRecordSignature(record, fields, signers).text : 'not checked: .orchestration/signers/ cannot be read';
    this.post({ type: 'detail', detail: { ...recordDetail(row, record), signer } });
  }

  /** Reveals the lines a record changed in an editor beside the inspector, selected; only files inside the workspace. */
  private async openAtRange(path: string, startLine: number, endLine: number): Promise<void> {
    const { workspace, caseInsensitive } = this.governed.services;
    const target = await resolveRecordedPath(workspace.root, path, { caseInsensitive });
    if (!target.ok) return void vscode.window.showWarningMessage(target.error.message);
    // Under the folder as VS Code opened it (the root may be reached through a link), by the checked real path.
    const uri = vscode.Uri.joinPath(this.governed.folder.uri, ...relative(workspace.root, target.value.abs).split(sep));
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      const last = Math.max(0, document.lineCount - 1);
      const start = Math.min(Math.max(0, startLine - 1), last);
      const end = Math.min(Math.max(start, endLine - 1), last);
      const range = new vscode.Range(start, 0, end, document.lineAt(end).text.length);
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, selection: range, preview: false });
    } catch {
      void vscode.window.showWarningMessage(`${path} cannot be opened: it was deleted or moved since the record was written.`);
    }
  }

  /** Brings the intent map up to date (it also follows every change on its own) and opens it beside the inspector. */
  private async openIntentMap(): Promise<void> {
    const map = this.governed.services.intentMap;
    const built = map ? await map.refresh() : undefined;
    if (built && !built.ok) return void vscode.window.showWarningMessage(`The intent map could not be rebuilt: ${built.error.message}`);
    const uri = vscode.Uri.joinPath(this.governed.folder.uri, ...INTENT_MAP_FILE.split('/'));
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { viewColumn: vscode.ViewColumn.Beside, preview: false });
    } catch {
      void vscode.window.showWarningMessage(`${INTENT_MAP_FILE} cannot be opened. Run 'governor intent-map' in a terminal to rebuild it and see why.`);
    }
  }

  private async sendSummary(): Promise<void> {
    const snapshot = await this.governed.services.intents.load();
    const plan = snapshot.valid ? snapshot.intents : [];
    const index = this.model.index;
    this.post({ type: 'summary', summary: { total: index.size, facets: index.facets(), intents: index.intentSummaries(plan), chart: index.chart() } });
  }

  private async sendChain(): Promise<void> {
    const results = await verifyWorkspaceLogs(this.governed.services.workspace.root, this.governed.anchors).catch(() => undefined);
    const chain: ChainStatus[] = results
      ? results.map(({ log, result, anchorMovedByGit }) => ({ log, status: result.status, text: describeVerification(result, anchorMovedByGit), firstBadLine: result.firstBadLine }))
      : [{ log: 'logs', status: 'unknown', text: 'could not be read' }];
    this.post({ type: 'chain', chain });
  }

  private scheduleVerify(): void {
    if (this.verifyTimer) clearTimeout(this.verifyTimer);
    this.verifyTimer = setTimeout(() => void this.sendChain(), VERIFY_DELAY_MS);
  }

  private post(message: HostMessage): void {
    void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (InspectorPanel.current === this) InspectorPanel.current = undefined;
    if (this.verifyTimer) clearTimeout(this.verifyTimer);
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}

function inspectorOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    // The list is rebuilt from the index in milliseconds; keeping a hidden 100k-row DOM alive is not worth it.
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
  };
}

/** The webview's filter as the index takes it: only string fields it knows, empty ones dropped. */
function cleanFilter(filter: InspectorFilter): InspectorFilter {
  const out: InspectorFilter = {};
  for (const key of ['intent', 'file', 'agent', 'model', 'decision', 'since', 'until', 'branchBase'] as const) {
    const value = filter?.[key];
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  if (filter?.source === 'trace' || filter?.source === 'governance') out.source = filter.source;
  if (filter?.mutationClass === 'AST_REFACTOR' || filter?.mutationClass === 'INTENT_EVOLUTION') out.mutationClass = filter.mutationClass;
  return out;
}
