import type { ApprovalMode } from './approval/approvalMode';
import type { ApprovalSetting } from './approval/approvalPolicy';
import type { StandingApprovals } from './approval/standingApprovals';
import type { Approver } from './approval/approver';
import type { HookJobLauncher } from './userHooks/detachedHookJob';
import type { HookApprovals } from './userHooks/hookApprovals';
import type { HookStatus, PromptHookExecutor } from './userHooks/hookExecution';
import type { HookRunLog } from './userHooks/hookRunLog';
import type { IntentMapUpdates } from './intentMap/intentMapUpdates';
import type { IntentSource } from './intents/intent';
import type { Logger } from './logger';
import type { SandboxAvailability } from './sandbox/sandboxAvailability';
import type { WriteLocks } from './policy/writeLocks';
import type { SessionRegistry } from './sessions/sessionRegistry';
import type { TraceSink } from './trace/traceSink';
import type { Workspace } from './workspace';

/** Knobs a user or host sets; defaults in DEFAULT_POLICY. */
export interface GovernancePolicy {
  /**
   * When a human is asked, for intents that do not say (`approval:` in the intents file): `every-change` asks
   * before every write and edit too. Every door sets it with resolveApprovalSetting (approvalPolicy.ts): the
   * extension from VS Code's settings, the CLI doors from the workspace's .vscode/settings.json.
   */
  approval: ApprovalMode;
  /** Whether a user's setting chose `approval` or the default did; answers name it. Absent: the default. */
  approvalFrom?: ApprovalSetting['from'];
  /** Untrusted workspaces get the strictest policy: every command is refused and every mutation asks. */
  trusted: boolean;
  commandTimeoutMs: number;
  maxCommandTimeoutMs: number;
  maxCommandOutputBytes: number;
  maxReadBytes: number;
  maxListedFiles: number;
}

/** A governor built in code (tests, benches) starts here; the doors set `approval` from the user's settings. */
export const DEFAULT_POLICY: GovernancePolicy = {
  approval: 'destructive-only',
  trusted: true,
  commandTimeoutMs: 60_000,
  maxCommandTimeoutMs: 600_000,
  maxCommandOutputBytes: 1024 * 1024,
  maxReadBytes: 2 * 1024 * 1024,
  maxListedFiles: 2000,
};

/** The ports a governed call runs against; each door (host, CLI, tests) builds one set. */
export interface GovernorServices {
  workspace: Workspace;
  intents: IntentSource;
  sessions: SessionRegistry;
  /** Per-file write locks shared with every other governor process on the workspace. */
  locks: WriteLocks;
  approver: Approver;
  /** "Approve for this Session" grants: which session may change files in which intent's scope without asking again. */
  standingApprovals: StandingApprovals;
  trace: TraceSink;
  /** Told after each recorded change or refusal, so `.orchestration/intent_map.md` follows; absent = no map kept here. */
  intentMap?: IntentMapUpdates;
  logger: Logger;
  clock: () => Date;
  /** Whether the workspace's filesystem folds case (paths and scopes compare accordingly). */
  caseInsensitive: boolean;
  policy: GovernancePolicy;
  /** Which user hook commands a human approved; default: files beside the trace anchors (outside the repo). */
  hookApprovals?: HookApprovals;
  /** The governor's per-user directory (user hooks, hook run log, session state); default governorHome(). */
  governorHome?: string;
  /** Runs `type: "prompt"` hooks through a language model; only the VS Code host has one. */
  promptHooks?: PromptHookExecutor;
  /** Shows a running hook's `statusMessage`; absent headless. */
  hookStatus?: HookStatus;
  /** Runs `async`/`asyncRewake` hooks in a detached process; absent = in this process (a resident one). */
  hookJobs?: HookJobLauncher;
  /** Where each hook's last result and duration are kept; default: files under the governor's home. */
  hookRunLog?: HookRunLog;
  /** The operating-system sandbox commands run in; default: the one detectSandbox() finds on this machine. */
  sandbox?: () => Promise<SandboxAvailability>;
}
