import { isApprovalMode, type ApprovalMode } from './approvalMode';

/**
 * The one approval policy every door applies (the extension, `governor decide`, `governor mcp`, the hook doors
 * and the resident governor): which mode is in effect for a call, and which changes that mode asks a person about.
 * The doors differ only in where they read the setting (VS Code's configuration; the workspace's
 * .vscode/settings.json for a process with no editor) and in who answers an ask.
 */

/** With nothing set, every change asks, in VS Code and outside it alike (seeds 001 and 003; fail closed). */
export const DEFAULT_APPROVAL_MODE: ApprovalMode = 'every-change';

/** The parts of `WorkspaceConfiguration.inspect()` that say whether a user set a value, and where. */
export interface InspectedSetting<T> {
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export interface ApprovalSetting {
  mode: ApprovalMode;
  /** `setting`: the user set `intentGovernor.approval` (or the deprecated approveWrites); `default`: nothing was set. */
  from: 'setting' | 'default';
  /** Set when the deprecated `approveWrites` decided: the line to log so the user learns of the new setting. */
  deprecation?: string;
}

/**
 * The approval mode from the user's settings: `intentGovernor.approval` when they set it, else the deprecated
 * `intentGovernor.approveWrites` when they set that (true → every-change, false → destructive-only), else the
 * default. An unknown value counts as unset, which is the asking side.
 */
export function resolveApprovalSetting(approval: InspectedSetting<unknown> | undefined, approveWrites: InspectedSetting<unknown> | undefined): ApprovalSetting {
  const chosen = explicit(approval);
  if (isApprovalMode(chosen)) return { mode: chosen, from: 'setting' };
  const legacy = explicit(approveWrites);
  if (typeof legacy !== 'boolean') return { mode: DEFAULT_APPROVAL_MODE, from: 'default' };
  const mode: ApprovalMode = legacy ? 'every-change' : 'destructive-only';
  return { mode, from: 'setting', deprecation: `intentGovernor.approveWrites is deprecated: its value ${legacy} is read as intentGovernor.approval = ${mode}; set that instead and remove approveWrites` };
}

/** The value the user set at the most specific level, as VS Code itself applies them. */
function explicit(setting: InspectedSetting<unknown> | undefined): unknown {
  return setting?.workspaceFolderValue ?? setting?.workspaceValue ?? setting?.globalValue;
}

/** The mode one call is judged under, and what set it, in the words every door's answer uses. */
export interface ModeInEffect {
  mode: ApprovalMode;
  /** `set by intent auth-refactor`, `set by the intentGovernor.approval setting` or `the default`. */
  setBy: string;
}

/** An intent's own `approval:` wins over the setting; the setting over the default. */
export function modeInEffect(intent: { id: string; approval?: ApprovalMode } | undefined, policy: { approval: ApprovalMode; approvalFrom?: ApprovalSetting['from'] }): ModeInEffect {
  if (intent?.approval) return { mode: intent.approval, setBy: `set by intent ${intent.id}` };
  return { mode: policy.approval, setBy: policy.approvalFrom === 'setting' ? 'set by the intentGovernor.approval setting' : 'the default' };
}

/** `approval mode every-change (the default)`: how an answer names the mode that decided it. */
export function describeMode(effect: ModeInEffect): string {
  return `approval mode ${effect.mode} (${effect.setBy})`;
}

/** What a call changes, as the gate sees it: `none` reads, `change` writes and edits (and commands that write). */
export type GatedChange = 'none' | 'change' | 'delete' | 'scope';

/**
 * The table: whether a person must approve. Deletes and scope expansions always; writes and edits under
 * every-change or in an untrusted workspace; reads never. Destructive commands ask from the command policy in
 * every mode.
 */
export function needsPerson(change: GatedChange, mode: ApprovalMode, trusted: boolean): boolean {
  if (change === 'delete' || change === 'scope') return true;
  if (change === 'change') return mode === 'every-change' || !trusted;
  return false;
}
