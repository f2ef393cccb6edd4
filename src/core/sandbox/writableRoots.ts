import { lstat, mkdir, realpath, rmdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { protectedPatternFor } from '../paths/protectedPaths';
import { normalizeScopePattern } from '../intents/scopePattern';

/** A place the kernel lets a confined command write: a folder (or one existing file) named by the intent's scope. */
export interface WritableRoot {
  abs: string; // realpath'd, inside the workspace
  rel: string; // workspace-relative POSIX; '' is the workspace itself
  file: boolean; // one file bound on its own (a scope entry naming an existing file)
  /** The globs that made this root; a change under it that none of them covers is found after the command. */
  globs: string[];
}

export interface ScopeRoots {
  roots: WritableRoot[];
  /** Folders created so their root could be bound; removed again after the command if still empty. */
  created: string[];
  /** Scope entries that got no root, and why (a symlink out of the workspace, a protected folder). */
  skipped: string[];
}

const GLOB_CHAR = /[*?[]/;

/**
 * Turns owned_scope globs into the folders the kernel can confine to: the literal part of each glob
 * (`src/auth/**` → `src/auth`, `src/**\/*.test.ts` → `src`). A glob that covers only some files of its folder
 * leaves the rest of the folder writable too; those changes are found by snapshot afterwards. Folders are
 * realpath'd, because bubblewrap follows symlinks and a link out of the workspace would make its target writable.
 */
export async function scopeRoots(workspaceRoot: string, ownedScope: readonly string[]): Promise<ScopeRoots> {
  const byRel = new Map<string, WritableRoot>();
  const created: string[] = [];
  const skipped: string[] = [];
  for (const raw of ownedScope) {
    const glob = normalizeScopePattern(raw);
    const segments = glob.split('/');
    const literalCount = segments.findIndex((s) => GLOB_CHAR.test(s));
    const literal = literalCount === -1 ? segments : segments.slice(0, literalCount);
    let rel = literal.join('/');
    let file = false;
    if (literalCount === -1) {
      // A glob without wildcards names one path: bind the file itself when it exists, else its folder.
      const kind = await kindOf(join(workspaceRoot, rel));
      if (kind === 'file') file = true;
      else if (kind !== 'directory') rel = literal.slice(0, -1).join('/');
    }
    const placed = await place(workspaceRoot, rel, file, created);
    if (typeof placed === 'string') {
      skipped.push(`${raw}: ${placed}`);
      continue;
    }
    const existing = byRel.get(placed.rel);
    if (existing) existing.globs.push(glob);
    else byRel.set(placed.rel, { ...placed, globs: [glob] });
  }
  return { roots: outermost([...byRel.values()]), created, skipped };
}

/** Removes the folders scopeRoots created that the command left empty, deepest first. */
export async function removeCreatedFolders(created: readonly string[]): Promise<void> {
  for (const dir of [...created].reverse()) await rmdir(dir).catch(() => undefined);
}

async function place(workspaceRoot: string, rel: string, file: boolean, created: string[]): Promise<Omit<WritableRoot, 'globs'> | string> {
  // Stryker disable next-line ConditionalExpression,StringLiteral: the workspace itself matches no protected pattern, so this only spares the lookup
  const pattern = rel === '' ? undefined : protectedPatternFor(rel);
  if (pattern) return `${rel} is protected (${pattern})`;
  const wanted = join(workspaceRoot, rel);
  if (!file) {
    const unmade = await ensureFolder(workspaceRoot, wanted, created);
    if (unmade !== undefined) return `${rel} ${unmade}`;
  }
  const real = await realpath(wanted).catch(() => undefined);
  if (real === undefined || !inside(workspaceRoot, real)) return `${rel} resolves outside the workspace`;
  const realRel = relative(workspaceRoot, real).split(sep).join('/');
  // Stryker disable next-line ConditionalExpression,StringLiteral: the workspace itself matches no protected pattern, so this only spares the lookup
  const realPattern = realRel === '' ? undefined : protectedPatternFor(realRel);
  if (realPattern) return `${rel} resolves into a protected path (${realPattern})`;
  return { abs: real, rel: realRel, file };
}

/**
 * mkdir -p, but only below an ancestor that really is inside the workspace (no link out), and never into a protected
 * folder (a link to `.git` makes nothing there). Undefined when the folder is there; else why it is not made.
 */
async function ensureFolder(workspaceRoot: string, wanted: string, created: string[]): Promise<string | undefined> {
  const missing: string[] = [];
  let at = wanted;
  // Stryker disable next-line ConditionalExpression: the workspace root exists, so the walk up stops there anyway
  while ((await kindOf(at)) === undefined && at !== workspaceRoot) {
    missing.push(at);
    at = dirname(at);
  }
  const real = await realpath(at).catch(() => undefined);
  if (real === undefined || !inside(workspaceRoot, real) || (await kindOf(real)) !== 'directory') return 'leads out of the workspace or is not a folder';
  const madeRel = relative(workspaceRoot, join(real, relative(at, wanted))).split(sep).join('/');
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: an existing folder gets the same refusal from place() after its realpath; this only spares the lookup
  const pattern = missing.length > 0 && madeRel !== '' ? protectedPatternFor(madeRel) : undefined;
  if (pattern) return `resolves into a protected path (${pattern})`;
  for (const dir of missing.reverse()) {
    await mkdir(dir);
    created.push(dir);
  }
  return undefined;
}

function outermost(roots: WritableRoot[]): WritableRoot[] {
  const sorted = [...roots].sort((a, b) => a.rel.length - b.rel.length);
  const kept: WritableRoot[] = [];
  for (const root of sorted) {
    const outer = kept.find((k) => !k.file && (k.rel === '' || root.rel.startsWith(`${k.rel}/`)));
    if (outer) outer.globs.push(...root.globs);
    else kept.push(root);
  }
  return kept;
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

async function kindOf(path: string): Promise<'file' | 'directory' | 'other' | undefined> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat) return undefined;
  return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
}

/** What the dialog names before a confined command runs: the folders each glob opens, from the text alone. */
export function describeScopeFolders(ownedScope: readonly string[]): string {
  return ownedScope
    .map((raw) => {
      const glob = normalizeScopePattern(raw);
      const segments = glob.split('/');
      const cut = segments.findIndex((s) => GLOB_CHAR.test(s));
      if (cut === -1) return glob;
      const folder = segments.slice(0, cut).join('/') || 'the workspace root';
      const whole = cut === segments.length - 1 && segments[cut] === '**';
      return whole ? folder : `${folder} (only ${glob} is in scope; changes to other files there are reported)`;
    })
    .join(', ');
}
