import { isApprovalMode, type ApprovalMode } from '../../core/approval/approvalMode';

/** The parts of `WorkspaceConfiguration.inspect()` that say whether a user set a value, and where. */
export interface InspectedSetting<T> {
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export interface ApprovalSetting {
  mode: ApprovalMode;
  /** Set when the deprecated `approveWrites` decided: the line to log so the user learns of the new setting. */
  deprecation?: string;
}

/** In VS Code a human is at hand, so by default every change asks (seeds 001 and 003). */
export const EDITOR_DEFAULT_APPROVAL: ApprovalMode = 'every-change';

/**
 * The editor's default approval mode from the user's settings: `intentGovernor.approval` when they set it, else
 * the deprecated `intentGovernor.approveWrites` when they set that (true → every-change, false →
 * destructive-only), else every-change. An unknown value counts as unset, which is the asking side.
 */
export function resolveApprovalSetting(approval: InspectedSetting<unknown> | undefined, approveWrites: InspectedSetting<unknown> | undefined): ApprovalSetting {
  const chosen = explicit(approval);
  if (isApprovalMode(chosen)) return { mode: chosen };
  const legacy = explicit(approveWrites);
  if (typeof legacy !== 'boolean') return { mode: EDITOR_DEFAULT_APPROVAL };
  const mode: ApprovalMode = legacy ? 'every-change' : 'destructive-only';
  return { mode, deprecation: `intentGovernor.approveWrites is deprecated: its value ${legacy} is read as intentGovernor.approval = ${mode}; set that instead and remove approveWrites` };
}

/** The value the user set at the most specific level, as VS Code itself applies them. */
function explicit(setting: InspectedSetting<unknown> | undefined): unknown {
  return setting?.workspaceFolderValue ?? setting?.workspaceValue ?? setting?.globalValue;
}
