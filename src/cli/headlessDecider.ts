import { dirname, join } from 'node:path';
import { FileHookApprovals } from '../core/hooks/user/hookApprovals';
import { FileBeforeStash } from '../core/bridge/beforeStash';
import { NativeToolBridge } from '../core/bridge/nativeToolBridge';
import { Governor } from '../core/governor';
import { createNodeServices, denyingApprover } from '../core/nodeServices';
import { defaultAnchorDir } from '../core/trace/anchorStore';
import { createTraceStack } from '../core/trace/traceStack';
import { governorHome, type HeadlessDecider } from './hookFlow';
import { TOOL_VERSION } from './toolVersion';

/**
 * No extension governs the workspace: judge here (an `ask` goes back to the agent) and trace to the
 * workspace's logs. Also its own bundle, dist/hook-headless.js, which dist/hook.js loads only when no
 * extension runs: it holds the governor and nothing else of the CLI.
 */
export const decideHeadless: HeadlessDecider = async (request, root, intent, io) => {
  const { sink: trace } = createTraceStack({ workspaceRoot: root, toolVersion: TOOL_VERSION, anchorDir: defaultAnchorDir(io.env) });
  try {
    const home = governorHome(io.env);
    const services = { ...(await createNodeServices({ root, approver: denyingApprover, trace })), governorHome: home, hookApprovals: new FileHookApprovals(join(dirname(defaultAnchorDir(io.env)), 'hook-approvals')) };
    const governor = new Governor(services);
    const bridge = new NativeToolBridge(governor, new FileBeforeStash(join(home, 'bridge')), { askHuman: false });
    try {
      return await bridge.handle(intent ? { ...request, intent_id: intent } : request);
    } finally {
      // This process ends with its answer: background hooks (async, asyncRewake) must finish first or they die with it.
      await governor.userHooks.drain();
    }
  } finally {
    await trace.close();
  }
};
