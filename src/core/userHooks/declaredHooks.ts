import { fileSignature } from '../io/fileSignature';
import { hookLayerFiles, loadHookLayers } from './hookLayers';

/** A hook as a door's routing sees it: the event it is declared for and its matcher. */
export interface DeclaredHook {
  event: string;
  matcher: string;
}

/**
 * What the hook files declare for one door. `unreadable`: a file is there but cannot be read or understood, so it
 * may declare anything (the runner refuses every decision until it is fixed).
 */
export interface DeclaredHooks {
  hooks: DeclaredHook[];
  unreadable: boolean;
}

/** Every layer's hooks for `door`, reduced to their events and matchers. */
export function declaredHooks(root: string, home: string, door: string): DeclaredHooks {
  const loaded = loadHookLayers(root, { home, door });
  return { hooks: loaded.hooks.map((hook) => ({ event: hook.event, matcher: hook.matcher })), unreadable: loaded.problems.length > 0 };
}

/**
 * The same, for a process that asks on every hook call: the files are read again only when one of them appeared,
 * went or changed (size, mtime, inode, ctime), so with no hook file at all a question costs a few stats.
 */
export class DeclaredHooksCache {
  private signature = '';
  private value: DeclaredHooks = { hooks: [], unreadable: false };

  constructor(
    private readonly root: string,
    private readonly home: string,
    private readonly door: string,
  ) {}

  get(): DeclaredHooks {
    const signature = hookLayerFiles(this.root, { home: this.home, door: this.door }).map(fileSignature).join('|');
    if (signature !== this.signature) {
      this.value = declaredHooks(this.root, this.home, this.door);
      this.signature = signature;
    }
    return this.value;
  }
}

