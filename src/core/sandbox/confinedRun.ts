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
import { diffSnapshots, snapshotRoots, type SnapshotChange } from './rootSnapshot';
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
  const planned = await scopeRoots(spec.workspaceRoot, spec.ownedScope);
  const tempDir = await realpath(await mkdtemp(join(tmpdir(), 'governor-cmd-')));
  try {
    const before = await snapshotRoots(spec.workspaceRoot, planned.roots);
    const needs = await commandNeedFolders(process.env.HOME || homedir());
    const writable = [...planned.roots.map((r) => r.abs), ...needs];
    const readOnlyInside = [...before.protectedInside, ...(await governorStoresUnder(writable))];
    const invocation = confinedInvocation(sandbox, { writable, readOnlyInside, tempDir, denyNetwork: spec.denyNetwork }, spec.command, spec.run.cwd, spec.run.env);
    const result = await runProcess(invocation.file, invocation.args, { ...spec.run, env: invocation.env });
    const after = await snapshotRoots(spec.workspaceRoot, planned.roots);
    const changes = diffSnapshots(before, after).map((change) => ({ ...change, inScope: inScope(change.rel, spec) }));
    return { result, roots: planned.roots, changes, refusals: sandboxRefusals(result.stderr, spec.run.cwd), complete: before.complete && after.complete, skipped: planned.skipped };
  } finally {
    await rm(tempDir, { recursive: true, force: true });
    await removeCreatedFolders(planned.created);
  }
}

function inScope(rel: string, spec: ConfinedCommand): boolean {
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
