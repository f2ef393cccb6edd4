import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, relative, sep } from 'node:path';
import type { ApprovalDecision } from '../approval/approver';
import type { BridgeRequest } from '../agents/common/nativeCall';
import type { HookDialect } from '../agents/common/hookDialect';
import type { GovernorServices } from '../governorServices';
import { resolveIntentForWrites } from '../intents/intentResolution';
import { confinedCommandLine } from '../sandbox/confinedCommandLine';
import { confinedInvocation } from '../sandbox/confinedInvocation';
import { planConfinement, releaseConfinement } from '../sandbox/confinedRun';
import type { PlannedPlaceholders } from '../sandbox/placeholders';
import { isAvailable, type AvailableSandbox } from '../sandbox/sandboxAvailability';
import { sandboxOf } from '../sandbox/sandboxOf';
import { storeSnapshot, type StoredSnapshot } from '../sandbox/snapshotRecord';
import { describeScopeFolders } from '../sandbox/writableRoots';
import type { PendingCommand, PendingNativeInput } from './pendingNativeChanges';

/** The private temp folder of an agent's confined command; its name in the rewritten line ties the post to the pre. */
const TEMP_PREFIX = 'governor-shell-';
const MARKER = /\/governor-shell-([A-Za-z0-9]{6})(?=[/'\s]|$)/u;

/** A native pre that can run confined: one shell command, an agent that runs a rewritten input, a sandbox that starts. */
export async function confinableShell(services: GovernorServices, request: BridgeRequest, dialect: HookDialect | undefined): Promise<AvailableSandbox | undefined> {
  const native = request.native;
  if (!native?.tool_name || !dialect?.confineShell || request.calls.length !== 1 || request.calls[0].tool !== 'run_command') return undefined;
  if (dialect.confineShell(native.tool_name, native.tool_input ?? {}, 'true') === undefined) return undefined;
  const sandbox = await sandboxOf(services);
  return isAvailable(sandbox) ? sandbox : undefined;
}

/** What the bridge answers with, and leaves on disk before it does. */
export interface ConfinedShellPlan {
  updatedInput: Record<string, unknown>;
  context: string;
  entry: PendingNativeInput;
  snapshot: StoredSnapshot;
  command: PendingCommand;
}

/**
 * The agent's shell command rewritten to run in the sandbox: its roots and private temp folder made, the snapshot
 * of the roots taken (before the agent hears "allow"), and the rewritten input in the agent's own shape.
 */
export async function planConfinedShell(
  services: GovernorServices,
  request: BridgeRequest,
  dialect: HookDialect,
  sandbox: AvailableSandbox,
  approval: ApprovalDecision | undefined,
): Promise<{ ok: true; plan: ConfinedShellPlan } | { ok: false; reason: string }> {
  const native = request.native;
  const call = request.calls[0];
  if (!native?.tool_name || !dialect.confineShell || call?.tool !== 'run_command') return { ok: false, reason: 'this call is not one shell command' };
  const intentId = services.sessions.boundIntentId(request.session_id);
  const intent = resolveIntentForWrites(await services.intents.load(), intentId);
  if (!intent.ok) return { ok: false, reason: intent.error.message };
  const root = await realpath(services.workspace.root);
  const cwd = await realpath(call.input.cwd ?? native.cwd).catch(() => undefined);
  if (cwd === undefined) return { ok: false, reason: `the folder it runs in (${call.input.cwd ?? native.cwd}) cannot be found` };
  const planned = await planConfinement({ workspaceRoot: root, ownedScope: intent.value.owned_scope, denyNetwork: intent.value.network === 'deny', ...(services.governorHome ? { governorHome: services.governorHome } : {}) }, TEMP_PREFIX).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  if (typeof planned === 'string') return { ok: false, reason: planned };
  const line = confinedCommandLine(confinedInvocation(sandbox, planned.confinement, call.input.command, cwd, {}), planned.confinement.tempDir);
  const updatedInput = dialect.confineShell(native.tool_name, native.tool_input ?? {}, line);
  const marker = markerIn(line);
  if (!updatedInput || marker === undefined) {
    await releaseConfinement(planned);
    return { ok: false, reason: `${request.agent.name}'s ${native.tool_name} input cannot carry the rewritten command` };
  }
  const command: PendingCommand = {
    index: 0,
    invocation_id: `${request.key}#0`,
    command: call.input.command,
    cwd: relative(root, cwd).split(sep).join('/'),
    roots: planned.roots.map((r) => ({ rel: r.rel, abs: r.abs, file: r.file })),
    owned_scope: [...intent.value.owned_scope],
    case_insensitive: services.caseInsensitive,
    temp_dir: planned.confinement.tempDir,
    created: planned.created,
    placeholders: planned.placeholders,
    planned_at: planned.startedMs,
  };
  const entry: PendingNativeInput = {
    key: confinedKey(marker),
    session_id: request.session_id,
    agent: request.agent,
    intent_id: intent.value.id,
    intent_scope: [...intent.value.owned_scope],
    native_tool: native.tool_name,
    files: [],
    command,
    ...(approval ? { approval } : {}),
  };
  const writable = describeScopeFolders(intent.value.owned_scope);
  const context = `Intent Governor runs this command confined by ${sandbox.kind}: it can write only in ${writable}, its own temp folder and package caches; .git, .orchestration, agent configuration (made or not) and everything else are read-only${intent.value.network === 'deny' ? ', and it has no network' : ''}. A write elsewhere fails with "Read-only file system"; a protected path made in a new folder is removed afterwards.`;
  return { ok: true, plan: { updatedInput, context, entry, snapshot: storeSnapshot(planned.before), command } };
}

/** The pending key of a confined command, from the rewritten line the agent ran (its post event carries it). */
export function confinedKeyIn(commandLine: string): string | undefined {
  const marker = markerIn(commandLine);
  return marker === undefined ? undefined : confinedKey(marker);
}

/** Once its changes are recorded (or it never ran): the temp folder and the scope folders made for it go. */
export async function releaseCommand(root: string, command: PendingCommand): Promise<void> {
  // Only what this module makes: a temp folder of ours directly in the temp directory, scope folders in the workspace.
  const temp = await realpath(tmpdir()).catch(() => tmpdir());
  const tempDir = typeof command.temp_dir === 'string' && dirname(command.temp_dir) === temp && basename(command.temp_dir).startsWith(TEMP_PREFIX) ? command.temp_dir : undefined;
  const realRoot = await realpath(root).catch(() => root);
  const created = Array.isArray(command.created) ? command.created.filter((dir) => typeof dir === 'string' && dir.startsWith(`${realRoot}${sep}`)) : [];
  const placeholders = command.placeholders && Array.isArray(command.placeholders.placeholders) && Array.isArray(command.placeholders.parents) ? insideRoot(realRoot, command.placeholders) : undefined;
  await releaseConfinement({ confinement: { tempDir }, created, ...(placeholders ? { placeholders } : {}) });
}

/** Only placeholders inside the workspace are removed (the pending entry is a file on disk). */
function insideRoot(realRoot: string, planned: PlannedPlaceholders): PlannedPlaceholders {
  const inside = (path: unknown) => typeof path === 'string' && path.startsWith(`${realRoot}${sep}`);
  return { placeholders: planned.placeholders.filter((p) => inside(p?.path)), parents: planned.parents.filter(inside) };
}

function markerIn(text: string): string | undefined {
  return MARKER.exec(text)?.[1];
}

function confinedKey(marker: string): string {
  return `confined-shell:${marker}`;
}
