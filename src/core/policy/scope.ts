import type { MinimatchOptions } from 'minimatch';
import { compileScopeGlob, MAX_PATH_BYTES, type ScopeGlob } from './scopeGlob';
import { toolError, type ToolError } from '../toolError';

export interface ScopeOptions {
  caseInsensitive: boolean;
}

/**
 * `dot: false` on purpose: `src/**` does not cover `src/.env` or `src/.secrets/`. Hidden files hold
 * credentials and tool config more often than code, so a scope must name them explicitly (fail closed).
 * Negation, braces, extglobs and comments are off: the intents loader rejects them, and here they would
 * only widen what a glob means. The platform is pinned so a glob means the same on every OS.
 */
const BASE_OPTIONS: MinimatchOptions = {
  nonegate: true,
  nobrace: true,
  noext: true,
  nocomment: true,
  dot: false,
  platform: 'linux',
};

// Hot path (every tool call): compiled matchers are reused; the bound keeps a hostile stream of globs finite.
const MAX_CACHED = 512;
const cache = new Map<string, ScopeGlob>();

function matcherFor(glob: string, caseInsensitive: boolean): ScopeGlob {
  // Stryker disable next-line StringLiteral: with either letter empty the two kinds of key still differ in their first character
  const key = `${caseInsensitive ? 'i' : 's'}\u0000${glob}`;
  let matcher = cache.get(key);
  // Stryker disable next-line ConditionalExpression: compiling a glob again gives the same matcher; the cache only saves the time
  if (matcher === undefined) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: evicting sooner, later or never changes no answer, only what the cache holds
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    matcher = compileScopeGlob(glob.normalize('NFC'), { ...BASE_OPTIONS, nocase: caseInsensitive });
    // Stryker disable next-line CallExpression: without it every glob is compiled on every call, with the same answers
    cache.set(key, matcher);
  }
  return matcher;
}

/**
 * The first glob of the intent's owned scope that covers `rel` (workspace-relative, POSIX), or undefined. Matching
 * takes time bounded by the glob times the path (scopeGlob.ts), and a path the filesystem could not hold (a segment
 * over 255 bytes, over 4096 in all) is covered by no glob.
 */
export function matchScope(rel: string, globs: readonly string[], options: ScopeOptions): string | undefined {
  if (rel.length > MAX_PATH_BYTES) return undefined; // before normalising a string of any length
  const path = rel.normalize('NFC');
  return globs.find((glob) => matcherFor(glob, options.caseInsensitive).matches(path));
}

export function scopeViolationError(rel: string, intentId: string, globs: readonly string[]): ToolError {
  const owned = globs.length === 0 ? '(nothing)' : globs.join(', ');
  return toolError(
    'SCOPE_VIOLATION',
    `"${rel}" is outside the owned scope of intent ${intentId} (${owned}). Call request_scope_expansion with the globs you need and a reason, or select another intent whose scope covers this path.`,
    { path: rel, intent_id: intentId, owned_scope: [...globs] },
  );
}
