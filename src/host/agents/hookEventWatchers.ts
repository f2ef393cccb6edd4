import { statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { governorHome } from '../../core/paths/governorHome';
import { fireConfigChanges, HookFileChanges } from '../../core/userHooks/configChange';
import { cwdChangedFiring, fileChangedFiring, fileChangedNames, WatchedFiles, type FileChangeKind } from '../../core/userHooks/fileChanged';
import { hookLayerFiles } from '../../core/userHooks/hookLayerFiles';
import type { HookFiring } from '../../core/userHooks/userHookRunner';
import type { GovernedFolder } from '../governedFolder';

/** The extension as the agent of the events it fires (`agent.name`, session id): no agent's call fires them. */
const WATCHER = 'vscode-extension';

// A glob character in a path: VS Code's pattern would read it as a pattern, so such a path is not watched.
const GLOB_CHARACTER = /[*?[\]{}]/u;

/**
 * The events VS Code itself can see, fired at the user hooks: ConfigChange when a hooks file the governor reads
 * changes, FileChanged when a file a FileChanged matcher names (in the governed folder) or a hook's `watchPaths`
 * lists is created, changed or deleted, CwdChanged when the workspace folders change.
 */
export function watchHookEvents(governed: GovernedFolder): vscode.Disposable {
  return new HookEventWatchers(governed);
}

class HookEventWatchers implements vscode.Disposable {
  private readonly root: string;
  private readonly hookFiles: HookFileChanges;
  private readonly configWatchers: vscode.Disposable[];
  private readonly subscriptions: vscode.Disposable[];
  private fileWatchers: vscode.Disposable[] = [];
  /** The files watched for FileChanged now, so a rebuild with the same list keeps its watchers. */
  private watchedKey = '';
  /** What the last hook's `watchPaths` said; the matchers' names are always watched besides. */
  private dynamic: readonly string[] = [];
  private readonly watchedFiles = new WatchedFiles();
  private folders: string[];
  /** Events fire one after the other, in the order VS Code reported them. */
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly governed: GovernedFolder) {
    this.root = governed.services.workspace.root;
    const home = governed.services.governorHome ?? governorHome();
    this.hookFiles = new HookFileChanges(this.root, home);
    this.configWatchers = hookLayerFiles(this.root, { home, door: WATCHER }).map((file) => this.watch(file, () => this.hooksFileTouched()));
    this.folders = currentFolders();
    this.subscriptions = [
      governed.governor.userHooks.onWatchPaths((paths) => {
        this.dynamic = [...paths];
        this.watchFiles();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders((event) => this.foldersChanged(event)),
    ];
    this.watchFiles();
  }

  dispose(): void {
    this.disposed = true;
    for (const d of [...this.configWatchers, ...this.fileWatchers, ...this.subscriptions]) d.dispose();
    this.fileWatchers = [];
  }

  /** A VS Code watcher on one file (or, for a folder, everything under it), reporting Claude Code's kind of change. */
  private watch(path: string, onEvent: (path: string, kind: FileChangeKind) => void): vscode.Disposable {
    const pattern = isFolder(path) ? new vscode.RelativePattern(vscode.Uri.file(path), '**/*') : new vscode.RelativePattern(vscode.Uri.file(dirname(path)), basename(path));
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    return vscode.Disposable.from(
      watcher,
      watcher.onDidCreate((uri) => onEvent(uri.fsPath, 'add')),
      watcher.onDidChange((uri) => onEvent(uri.fsPath, 'change')),
      watcher.onDidDelete((uri) => onEvent(uri.fsPath, 'unlink')),
    );
  }

  /** VS Code may report one save twice (create and change): the file signatures tell each change once. */
  private hooksFileTouched(): void {
    const changes = this.hookFiles.take();
    if (changes.length === 0) return;
    this.enqueue(() => fireConfigChanges(this.governed.governor.userHooks, changes, this.root, WATCHER, this.governed.services.logger));
    this.watchFiles(); // a FileChanged matcher may have come or gone
  }

  /** Watches the names FileChanged matchers give (in the governed folder) and the last `watchPaths`. */
  private watchFiles(): void {
    if (this.disposed) return;
    const named = fileChangedNames(this.governed.governor.userHooks.load(WATCHER).hooks).map((name) => join(this.root, name));
    const paths = [...new Set([...named, ...this.dynamic])].filter((path) => {
      if (!GLOB_CHARACTER.test(path)) return true;
      this.governed.log.warn(`FileChanged: ${path} is not watched (a path with * ? [ ] { } cannot be watched here)`);
      return false;
    });
    const key = paths.join('\n');
    if (key === this.watchedKey) return;
    for (const watcher of this.fileWatchers) watcher.dispose();
    this.watchedKey = key;
    for (const path of paths) this.watchedFiles.know(path);
    this.fileWatchers = paths.map((path) =>
      this.watch(path, (file, reported) => {
        const kind = this.watchedFiles.changed(file, reported);
        if (kind) this.fire(fileChangedFiring(file, kind, this.root, WATCHER));
      }),
    );
  }

  private foldersChanged(event: vscode.WorkspaceFoldersChangeEvent): void {
    const now = currentFolders();
    const oldCwd = this.folders[0] ?? this.root;
    this.folders = now;
    const change = { oldCwd, newCwd: now[0] ?? oldCwd, added: event.added.map((f) => f.uri.fsPath), removed: event.removed.map((f) => f.uri.fsPath) };
    this.fire(cwdChangedFiring(change, WATCHER));
  }

  private fire(firing: HookFiring): void {
    this.enqueue(() => this.governed.governor.userHooks.fire(firing));
  }

  private enqueue(run: () => Promise<unknown>): void {
    this.queue = this.queue.then(run).catch((error: unknown) => this.governed.log.error(`hooks fired by VS Code: ${error instanceof Error ? error.message : String(error)}`));
  }
}

function currentFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
