import { agentById } from '../core/agents/registry';
import type { Approver } from '../core/approval/approver';
import { Governor } from '../core/governor';
import type { GovernorServices } from '../core/governorServices';
import type { Logger } from '../core/logger';
import { createNodeServices } from '../core/nodeServices';
import { governorHome } from '../core/paths/governorHome';
import { doorSigner } from '../core/signing/firstUseKey';
import { defaultAnchorDir } from '../core/trace/anchorStore';
import type { TraceSink } from '../core/trace/traceSink';
import { createTraceStack, type TraceStack } from '../core/trace/traceStack';
import { FileHookApprovals } from '../core/userHooks/hookApprovals';
import { TOOL_VERSION } from './toolVersion';
import { workspaceApprovalSetting } from './workspaceApprovalSetting';
import { hookApprovalsDir } from '../core/paths/userStores';

/**
 * The governor stack every CLI door builds the same way (`governor mcp`, the headless hook, `decide`, `check`,
 * a detached hook job): one factory, so no door forgets this user's anchors, signing key, hook approvals or the
 * agents' labels.
 */

/** The trace writer of a CLI door: this user's anchors and signing key, the CLI's version in every record. */
export function cliTraceStack(root: string, env: NodeJS.ProcessEnv, announce?: (text: string) => void): TraceStack {
  return createTraceStack({ workspaceRoot: root, toolVersion: TOOL_VERSION, anchorDir: defaultAnchorDir(env), signer: doorSigner(root, env, announce), governorHome: governorHome(env) });
}

export interface CliServicesOptions {
  approver: Approver;
  /** Where records go; a door that only judges (`decide`) writes none. */
  trace?: TraceSink;
  logger?: Logger;
}

/** The services a CLI door's governor runs against, over the real filesystem. */
export async function cliServices(root: string, env: NodeJS.ProcessEnv, options: CliServicesOptions): Promise<GovernorServices> {
  // The extension's approval policy, from the workspace's settings: the same call gets the same answer at every door.
  const approval = workspaceApprovalSetting(root, options.logger);
  if (approval.deprecation) options.logger?.warn(approval.deprecation);
  const policy = { approval: approval.mode, approvalFrom: approval.from };
  const services = await createNodeServices({ root, approver: options.approver, trace: options.trace, logger: options.logger, policy, agentLabel: (id) => agentById(id)?.label });
  // The approvals of project hooks live beside the anchors, as the extension keeps them; the run log in the governor's home.
  return { ...services, governorHome: governorHome(env), hookApprovals: new FileHookApprovals(hookApprovalsDir(env)) };
}

export interface CliGovernor {
  governor: Governor;
  trace: TraceStack['sink'];
  /** Flushes the trace; the door calls it once it is done with the governor. */
  close(): Promise<void>;
}

/** A governor writing to the workspace's trace with this user's key: `extra` adds what only this door has (intent map, hook jobs). */
export async function openCliGovernor(
  root: string,
  env: NodeJS.ProcessEnv,
  options: Omit<CliServicesOptions, 'trace'> & { extra?: Partial<GovernorServices>; /** Where a first-use key notice goes (default stderr). */ announce?: (text: string) => void },
): Promise<CliGovernor> {
  const { sink } = cliTraceStack(root, env, options.announce);
  const services = await cliServices(root, env, { approver: options.approver, logger: options.logger, trace: sink });
  return { governor: new Governor({ ...services, ...options.extra }), trace: sink, close: () => sink.close() };
}
