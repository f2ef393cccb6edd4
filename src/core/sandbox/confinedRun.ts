import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { hookTrustStores } from '../commands/hookTrustRules';
import { governorHome } from '../paths/governorHome';
import { protectedPatternFor } from '../paths/protectedPaths';
import { matchScope } from '../policy/scope';
import { runProcess, type RunOptions, type RunResult } from '../process/processRunner';
import { commandNeedFolders } from './commandNeeds';
import { confinedInvocation } from './confinedInvocation';
import type { Confinement } from './confinement';
import { diffSnapshots, snapshotRoots, type RootSnapshot, type SnapshotChange } from './rootSnapshot';
import type { AvailableSandbox } from './sandboxAvailability';
import { sandboxRefusals, type SandboxRefusal } from './sandboxRefusals';
import { removeCreatedFolders, scopeRoots, type WritableRoot } from './writableRoots';

export interface ConfinedCommand {
  command: string;
  workspaceRoot: string; // realpath'd
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
    const result = await runProcess(invocation.file, invocation.args, { ...spec.run, env: invocation.env });
    const after = await snapshotRoots(spec.workspaceRoot, planned.roots);
    const changes = diffSnapshots(planned.before, after).map((change) => ({ ...change, inScope: inScope(change.rel, spec) }));
    return { result, roots: planned.roots, changes, refusals: sandboxRefusals(result.stderr, spec.run.cwd), complete: planned.before.complete && after.complete, skipped: planned.skipped };
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
  confinement: Confinement;
}

/**
 * The confinement of one command (run here, or by an agent's own shell once its hook answered): the scope's
 * roots and the named caches writable, the protected paths and the governor's stores inside them read-only again,
 * a private temp folder named `<prefix>XXXXXX`, and the snapshot of the roots taken last, just before it runs.
 */
export async function planConfinement(spec: Pick<ConfinedCommand, 'workspaceRoot' | 'ownedScope' | 'denyNetwork'>, prefix: string): Promise<PlannedConfinement> {
  const planned = await scopeRoots(spec.workspaceRoot, spec.ownedScope);
  const tempDir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  try {
    const before = await snapshotRoots(spec.workspaceRoot, planned.roots);
    const needs = await commandNeedFolders(process.env.HOME || homedir());
    const writable = [...planned.roots.map((r) => r.abs), ...needs];
    const readOnlyInside = [...before.protectedInside, ...(await governorStoresUnder(writable))];
    return { roots: planned.roots, created: planned.created, skipped: planned.skipped, before, confinement: { writable, readOnlyInside, tempDir, denyNetwork: spec.denyNetwork } };
  } catch (error) {
    await rm(tempDir, { recursive: true, force: true });
    await removeCreatedFolders(planned.created);
    throw error;
  }
}

/** After the command: its temp folder goes, and the scope folders made for it if it left them empty. */
export async function releaseConfinement(planned: { confinement: { tempDir?: string }; created: readonly string[] }): Promise<void> {
  if (planned.confinement.tempDir !== undefined) await rm(planned.confinement.tempDir, { recursive: true, force: true });
  await removeCreatedFolders(planned.created);
}

export function inScope(rel: string, spec: Pick<ConfinedCommand, 'ownedScope' | 'caseInsensitive'>): boolean {
  return protectedPatternFor(rel) === undefined && matchScope(rel, spec.ownedScope, { caseInsensitive: spec.caseInsensitive }) !== undefined;
}

/** The governor's own stores (hook trust, signing keys, its home) when a writable place holds them: read-only again. */
async function governorStoresUnder(writable: readonly string[]): Promise<string[]> {
  const stores = [governorHome(), ...hookTrustStores().map((s) => s.path)];
  const found: string[] = [];
  for (const store of stores) {
    const real = await realpath(store).catch(() => undefined);
    if (real !== undefined && writable.some((w) => real === w || real.startsWith(`${w}${sep}`))) found.push(real);
  }
  return found;
}
