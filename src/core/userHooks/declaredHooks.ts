import { matchNames } from './claudeToolNames';
import { CachedHookLayers, loadHookLayers, type LoadedHooks } from './hookLayers';
import { matcherMatches } from './hookMatcher';

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

/** No hook declared. */
export const NO_DECLARED_HOOKS: DeclaredHooks = { hooks: [], unreadable: false };

/**
 * Whether a declared PostToolUse or PostToolUseFailure hook may match the agent's tool `tool` (the governed tools it
 * amounts to, `governed`, are matched too): its post must then reach the governor, which runs that hook.
 */
export function postHooked(hooks: readonly DeclaredHook[], tool: string, governed: readonly string[]): boolean {
  const names = matchNames(tool, governed);
  return hooks.some((hook) => isPostHook(hook) && matcherMatches(hook.matcher, names));
}

/** A hook the governor runs on a tool's post: PostToolUse, or PostToolUseFailure. */
export function isPostHook(hook: DeclaredHook): boolean {
  return hook.event === 'PostToolUse' || hook.event === 'PostToolUseFailure';
}

/** Every layer's hooks for `door`, reduced to their events and matchers. */
export function declaredHooks(root: string, home: string, door: string): DeclaredHooks {
  return declaredOf(loadHookLayers(root, { home, door }));
}

function declaredOf(loaded: LoadedHooks): DeclaredHooks {
  return { hooks: loaded.hooks.map((hook) => ({ event: hook.event, matcher: hook.matcher })), unreadable: loaded.problems.length > 0 };
}

/**
 * The same, for a process that asks on every hook call: the files are read again only when one of them appeared,
 * went or changed (CachedHookLayers), so with no hook file at all a question costs a few stats.
 */
export class DeclaredHooksCache {
  private readonly layers: CachedHookLayers;
  private loaded: LoadedHooks | undefined;
  private value: DeclaredHooks = { hooks: [], unreadable: false };

  constructor(root: string, home: string, door: string) {
    this.layers = new CachedHookLayers(root, { home, door });
  }

  get(): DeclaredHooks {
    const loaded = this.layers.get();
    if (loaded !== this.loaded) {
      this.value = declaredOf(loaded);
      this.loaded = loaded;
    }
    return this.value;
  }
}
