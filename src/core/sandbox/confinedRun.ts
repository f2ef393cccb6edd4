import { lstatSync, realpathSync } from 'node:fs';
import { lstat, mkdtemp, open, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { governorStores } from '../commands/governorStores';
import { defaultAnchorDir } from '../trace/anchorStore';
import { governorHome } from '../paths/governorHome';
import { protectedPatternFor } from '../paths/protectedPaths';
import { matchScope } from '../policy/scope';
import { runProcess, type RunOptions, type RunResult } from '../process/processRunner';
import { commandNeedFolders } from './commandNeeds';
import { confinedInvocation } from './confinedInvocation';
import type { Confinement } from './confinement';
import { emptySources, plannedPlaceholders, removePlaceholders, type PlannedPlaceholders } from './placeholders';
import { undoProtectedCreations, type ProtectedCreation } from './protectedCreations';
import { diffSnapshots, MAX_SCANNED, snapshotRoots, type RootSnapshot, type SnapshotChange } from './rootSnapshot';
import type { AvailableSandbox } from './sandboxAvailability';
import { sandboxRefusals, type SandboxRefusal } from './sandboxRefusals';
import { unixSocketFilterFile } from './unixSocketFilter';
import { writeGateFile, writeGateProbe } from './writeGate';
import { removeCreatedFolders, scopeRoots, type WritableRoot } from './writableRoots';

export interface ConfinedCommand {
  command: string;
  workspaceRoot: string; // realpath'd
  /** The governor's home (its stores are hidden from the command); default governorHome(). */
  governorHome?: string;
  ownedScope: readonly string[];
  denyNetwork: boolean;
  caseInsensitive: boolean;
  run: RunOptions; // cwd inside the workspace, timeout, output cap, env, signal
}

/** A file the confined command changed under its writable roots, and whether the intent's scope covers it. */
export interface ConfinedChange extends SnapshotChange {
  inScope: boolean;
}

export interface ConfinedResult {
  result: RunResult;
  roots: WritableRoot[];
  changes: ConfinedChange[];
  refusals: SandboxRefusal[];
  /** Protected paths the command made below a writable folder, removed again by the after-check. */
  protectedMade: ProtectedCreation[];
  /** False when the snapshot stopped early (too many files under the roots): changes past it were not seen. */
  complete: boolean;
  skipped: string[];
}

/**
 * Runs a command in the sandbox with the bound intent's scope as its only writable part of the workspace, and
 * tells what it changed there (snapshot of the roots before and after) and which writes the kernel refused.
 */
export async function runConfined(sandbox: AvailableSandbox, spec: ConfinedCommand): Promise<ConfinedResult> {
  const planned = await planConfinement(spec, 'governor-cmd-');
  try {
    const invocation = confinedInvocation(sandbox, planned.confinement, spec.command, spec.run.cwd, spec.run.env);
    const filter = invocation.fd3 !== undefined ? await open(invocation.fd3, 'r') : undefined;
    const result = await runProcess(invocation.file, invocation.args, { ...spec.run, env: invocation.env, ...(filter ? { extraFds: [filter.fd] } : {}) }).finally(() => filter?.close());
    removePlaceholders(planned.placeholders);
    const after = await snapshotRoots(spec.workspaceRoot, planned.roots);
    const protectedMade = undoProtectedCreations(spec.workspaceRoot, planned.before, after, planned.startedMs);
    const changes = diffSnapshots(planned.before, after).map((change) => ({ ...change, inScope: inScope(change.rel, spec) }));
    const refusals = sandboxRefusals(result.stderr, spec.run.cwd);
    return { result, roots: planned.roots, changes, refusals, protectedMade, complete: planned.before.complete && after.complete, skipped: planned.skipped };
  } finally {
    await releaseConfinement(planned);
  }
}

/** What a confined command is given before it runs: its roots, the snapshot of them, its private temp folder. */
export interface PlannedConfinement {
  roots: WritableRoot[];
  /** Folders scopeRoots made so they could be bound: removed afterwards when the command left them empty. */
  created: string[];
  skipped: string[];
  before: RootSnapshot;
  /** When the snapshot was taken (ms): protected entries born before it are never the command's. */
  startedMs: number;
  placeholders: PlannedPlaceholders;
  confinement: Confinement;
}

/**
 * The confinement of one command (run here, or by an agent's own shell once its hook answered): the scope's
 * roots and the named caches writable, the protected paths inside them read-only again whether they exist or not,
 * the governor's stores hidden, a private temp folder named `<prefix>XXXXXX`, and the snapshot of the roots taken
 * last, just before it runs. Refused (thrown) when the roots hold too many names to know every protected path.
 */
export async function planConfinement(spec: Pick<ConfinedCommand, 'workspaceRoot' | 'ownedScope' | 'denyNetwork' | 'governorHome'>, prefix: string): Promise<PlannedConfinement> {
  const planned = await scopeRoots(spec.workspaceRoot, spec.ownedScope);
  const tempDir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  try {
    const home = spec.governorHome ?? governorHome();
    const emptySource = emptySources(home);
    const placeholders = plannedPlaceholders(planned.roots);
    const needs = await commandNeedFolders(process.env.HOME || homedir());
    const writable = planned.roots.map((r) => r.abs);
    const hidden = hiddenStores(home, spec.workspaceRoot);
    const startedMs = Date.now();
    const before = await snapshotRoots(spec.workspaceRoot, planned.roots);
    if (!before.protectedComplete) throw new Error(`the intent's scope folders hold more than ${MAX_SCANNED} names, too many to know every protected path in them; narrow owned_scope`);
    const unixDenied = spec.denyNetwork ? await unixDenial(home) : undefined;
    const confinement: Confinement = { workspaceRoot: spec.workspaceRoot, needs, writable, readOnlyInside: before.protectedInside, placeholders: placeholders.placeholders, emptySource, hidden, tempDir, denyNetwork: spec.denyNetwork, ...(unixDenied ? { unixDenied } : {}) };
    return { roots: planned.roots, created: planned.created, skipped: planned.skipped, before, startedMs, placeholders, confinement };
  } catch (error) {
    await rm(tempDir, { recursive: true, force: true });
    await removeCreatedFolders(planned.created);
    throw error;
  }
}

/** After the command: its temp folder and placeholders go, and the scope folders made for it if it left them empty. */
export async function releaseConfinement(planned: { confinement: { tempDir?: string }; created: readonly string[]; placeholders?: PlannedPlaceholders }): Promise<void> {
  if (planned.confinement.tempDir !== undefined) await rm(planned.confinement.tempDir, { recursive: true, force: true });
  if (planned.placeholders) removePlaceholders(planned.placeholders);
  await removeCreatedFolders(planned.created);
}

export function inScope(rel: string, spec: Pick<ConfinedCommand, 'ownedScope' | 'caseInsensitive'>): boolean {
  return protectedPatternFor(rel) === undefined && matchScope(rel, spec.ownedScope, { caseInsensitive: spec.caseInsensitive }) !== undefined;
}

/** Where services keep their sockets and FIFOs: replaced by empty folders for a `network: deny` command. */
const RUNTIME_DIRS = ['/run', '/var/run', '/tmp', '/var/tmp'];

/**
 * What `network: deny` adds beyond the network namespace: the unix-socket filter (by rule, for every path), the write
 * gate (Landlock: a FIFO outside the writable folders cannot be opened for writing, whatever mount it is on) and empty
 * runtime folders (so none can be read from where services keep them). Thrown when this machine cannot keep one of
 * them: the command would reach local services, so it is not run.
 */
async function unixDenial(home: string): Promise<NonNullable<Confinement['unixDenied']>> {
  const filterFile = await unixSocketFilterFile(home);
  if (filterFile === undefined) throw new Error(`network: deny cannot be kept on ${process.arch}: no unix-socket filter is known for it`);
  const writeGate = await writeGateFile(home);
  if (writeGate === undefined) throw new Error(`network: deny cannot be kept on ${process.arch}: no write gate is known for it`);
  const unconfined = await writeGateProbe(writeGate);
  if (unconfined !== undefined) throw new Error(`network: deny cannot be kept here: this kernel does not confine writes with Landlock (${unconfined}); enable Landlock (Linux 5.13 or later, 'landlock' in the lsm= boot list) or set the intent's network to allow`);
  const runtimeDirs = new Set<string>();
  for (const dir of [...RUNTIME_DIRS, ...(process.env.XDG_RUNTIME_DIR ? [process.env.XDG_RUNTIME_DIR] : [])]) {
    const real = await realpath(dir).catch(() => undefined);
    if (real !== undefined && real !== '/' && (await lstat(real).catch(() => undefined))?.isDirectory()) runtimeDirs.add(real);
  }
  // Outer folders first: an inner one mounted before its parent's tmpfs would be covered again.
  return { filterFile, writeGate, runtimeDirs: [...runtimeDirs].sort((a, b) => a.length - b.length) };
}

/**
 * The governor's stores that exist, realpath'd: its home (keys, the resident's endpoint and token, hook runs) and the
 * anchors and hook approvals. Hidden from the command wherever they sit, writable places included.
 */
function hiddenStores(home: string, workspaceRoot: string): string[] {
  // The stores the command policy keeps agents from reading, and the anchors beside them.
  const stores = [...governorStores({ home }).map((store) => store.path), defaultAnchorDir()];
  const reals: string[] = [];
  for (const store of stores) {
    try {
      reals.push(realpathSync(store));
    } catch {
      // not made yet: nothing to hide
    }
  }
  const found: string[] = [];
  // Outer folders first, so one tmpfs hides what lies inside it.
  for (const real of reals.sort((a, b) => a.length - b.length)) {
    // A store that holds the workspace (a home set to a parent of it) cannot be hidden without hiding the work too.
    if (real === workspaceRoot || workspaceRoot.startsWith(`${real}${sep}`)) continue;
    if (lstatSync(real, { throwIfNoEntry: false })?.isDirectory() && !found.some((f) => real === f || real.startsWith(`${f}${sep}`))) found.push(real);
  }
  return found;
}
