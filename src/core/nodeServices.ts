import { headlessApprover } from './approval/headlessRefusal';
import type { AgentLabeller } from './sessions/sessionDoor';
import { StandingApprovals } from './approval/standingApprovals';
import { DEFAULT_POLICY, type GovernancePolicy, type GovernorServices } from './governorServices';
import type { Approver } from './approval/approver';
import { FileIntentSource } from './intents/fileIntentSource';
import { nullLogger, type Logger } from './logger';
import { createNodeWorkspace } from './nodeWorkspace';
import { detectCaseInsensitive } from './paths/canonicalPath';
import { WriteLocks } from './policy/writeLocks';
import { SessionRegistry } from './sessions/sessionRegistry';
import { nullTraceSink, type TraceSink } from './trace/traceSink';

export interface NodeServicesOptions {
  root: string;
  approver: Approver;
  trace?: TraceSink;
  logger?: Logger;
  policy?: Partial<GovernancePolicy>;
  clock?: () => Date;
  /** Names the agent of a hook-bridge or resident session for people (the agent registry's labels). */
  agentLabel?: AgentLabeller;
}

/** Refuses every approval, saying nobody was asked: for doors with no human to ask (a hook with no window). */
export const denyingApprover: Approver = headlessApprover(
  'To approve such calls, run the agent while VS Code with the Intent Governor extension has this workspace open: it asks you in a modal.',
);

/** Services over the real filesystem, for the CLI, the headless hook bridge and tests. */
export async function createNodeServices(options: NodeServicesOptions): Promise<GovernorServices> {
  const workspace = await createNodeWorkspace(options.root);
  const caseInsensitive = await detectCaseInsensitive(workspace.root);
  return {
    workspace,
    intents: new FileIntentSource(workspace.root),
    sessions: new SessionRegistry({ agentLabel: options.agentLabel }),
    locks: new WriteLocks(workspace.root, caseInsensitive),
    approver: options.approver,
    standingApprovals: new StandingApprovals(options.clock),
    trace: options.trace ?? nullTraceSink,
    logger: options.logger ?? nullLogger,
    clock: options.clock ?? (() => new Date()),
    caseInsensitive,
    policy: { ...DEFAULT_POLICY, ...options.policy },
  };
}
