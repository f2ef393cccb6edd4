import { lstat, readFile, readlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { decodeText } from '../pipeline/callFacts';
import type { ToolOutput } from '../pipeline/hookTypes';
import { mutationEventFor } from '../pipeline/mutationEvent';
import type { RunOptions } from '../process/processRunner';
import { runConfined, type ConfinedChange, type ConfinedResult } from '../sandbox/confinedRun';
import { protectedMadeMessage } from '../sandbox/protectedCreations';
import type { AvailableSandbox } from '../sandbox/sandboxAvailability';
import type { FileChange } from '../trace/traceSink';
import { fail, toolError, type Result } from '../toolError';
import { commandOutput } from './commandOutput';
import type { ToolExecution } from './toolDefinition';

/** More changed files than this (an install into the scope) are named, not read into the trace one by one. */
const MAX_TRACED_FILES = 1000;

/**
 * run_command inside the sandbox: only the bound intent's scope is writable. What the command changed there is
 * found by snapshot and traced with its content; a write the kernel refused, or a change under a root that the
 * scope's globs do not cover, comes back as SCOPE_VIOLATION naming the paths (after what did land is recorded).
 */
export async function runConfinedCommand(
  execution: ToolExecution,
  sandbox: AvailableSandbox,
  options: RunOptions,
  targets: ReadonlyArray<{ rel: string }>,
  before: ReadonlyArray<Uint8Array | undefined>,
): Promise<Result<ToolOutput>> {
  const { facts, services, call } = execution;
  const intent = await facts.boundIntent();
  if (!intent.ok) return fail(intent.error);
  const command = String(call.input.command);
  const root = services.workspace.root;
  const confined = await runConfined(sandbox, {
    command,
    workspaceRoot: root,
    ...(services.governorHome ? { governorHome: services.governorHome } : {}),
    ownedScope: intent.value.owned_scope,
    denyNetwork: intent.value.network === 'deny',
    caseInsensitive: services.caseInsensitive,
    run: options,
  }).catch((error: unknown) => toolError('COMMAND_DENIED', `The command was not run: it cannot be confined (${error instanceof Error ? error.message : String(error)}).`));
  if ('type' in confined) return fail(confined);
  const knownBefore = new Map(targets.map((t, i) => [t.rel, before[i]]));
  const changes: FileChange[] = [];
  for (const change of confined.changes.slice(0, MAX_TRACED_FILES)) changes.push(await traced(root, change, knownBefore));
  const outside = confined.changes.filter((c) => !c.inScope).map((c) => c.rel);
  const refused = confined.refusals.map((r) => (r.path === undefined ? undefined : shownPath(root, r.path)));
  const note = confinementNote(sandbox, confined);
  const made = confined.protectedMade;
  if (outside.length === 0 && confined.refusals.length === 0 && made.length === 0) return commandOutput(command, confined.result, options.timeoutMs, changes, note);
  // The error path records nothing by itself: what landed in the scope is recorded here first.
  const event = await mutationEventFor(facts, changes, execution.approval);
  if (event) await services.trace.recordMutation(event);
  const named = [...new Set([...refused.filter((p): p is string => p !== undefined), ...outside, ...made.map((m) => m.rel)])];
  const what = [
    ...(made.length > 0 ? [protectedMadeMessage(made)] : []),
    ...(confined.refusals.length > 0 ? [`the sandbox refused ${confined.refusals.length === 1 ? 'a write' : 'writes'}${named.length > 0 ? '' : ' (path not named in the output)'}`] : []),
    ...(outside.length > 0 ? [`it changed ${outside.join(', ')}, which the intent's scope does not cover (recorded in the trace)`] : []),
  ].join('; ');
  return fail(
    toolError(
      'SCOPE_VIOLATION',
      `The command ran confined to the intent '${intent.value.id}' scope (${intent.value.owned_scope.join(', ')}) and ${what}${refused.some((p) => p !== undefined) ? `: ${refused.filter((p) => p !== undefined).join(', ')}` : ''}. Only the scope is writable; write inside it, or ask for more with request_scope_expansion.${note}`,
      {
        paths: named,
        refused: confined.refusals.map((r) => r.line),
        outside_scope: outside,
        protected_made: made.map((m) => m.rel),
        changed: changes.map((c) => c.path),
        exit_code: confined.result.exitCode,
        stdout: confined.result.stdout,
        stderr: confined.result.stderr,
      },
    ),
  );
}

async function traced(root: string, change: ConfinedChange, knownBefore: Map<string, Uint8Array | undefined>): Promise<FileChange> {
  const abs = join(root, change.rel);
  const known = knownBefore.has(change.rel);
  const previous = known ? { before: decodeText(knownBefore.get(change.rel)) } : change.kind === 'created' ? {} : { before_unknown: true as const };
  if (change.kind === 'deleted') return { path: change.rel, ...previous };
  return { path: change.rel, ...previous, after: await currentText(abs) };
}

/** A link is recorded as what it points to, never as the content it reaches (which may lie outside the scope). */
async function currentText(abs: string): Promise<string> {
  const stat = await lstat(abs).catch(() => undefined);
  if (stat?.isSymbolicLink()) return `symlink -> ${await readlink(abs).catch(() => '?')}`;
  if (!stat?.isFile()) return '';
  return decodeText(await readFile(abs).catch(() => undefined)) ?? '';
}

function shownPath(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel.startsWith('..') || rel === '' ? abs : rel.split(sep).join('/');
}

function confinementNote(sandbox: AvailableSandbox, confined: ConfinedResult): string {
  const roots = confined.roots.map((r) => r.rel || '(workspace root)').join(', ') || 'nothing in the workspace';
  const lines = [`\n--- sandbox ---\nran confined by ${sandbox.kind}; writable in the workspace: ${roots}`];
  if (confined.changes.length > 0) lines.push(`changed: ${confined.changes.map((c) => `${c.rel} (${c.kind})`).join(', ')}`);
  if (!confined.complete) lines.push('too many files under the writable folders to list every change');
  if (confined.skipped.length > 0) lines.push(`not writable: ${confined.skipped.join('; ')}`);
  return lines.join('\n');
}
