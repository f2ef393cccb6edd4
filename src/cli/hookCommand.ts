import { join } from 'node:path';
import { FileBeforeStash } from '../core/bridge/beforeStash';
import { NativeToolBridge } from '../core/bridge/nativeToolBridge';
import { Governor } from '../core/governor';
import { createNodeServices, denyingApprover } from '../core/nodeServices';
import { FileAnchorStore } from '../core/trace/anchorStore';
import { JsonlTraceSink } from '../core/trace/traceWriter';
import type { CliCommand } from './cliCommand';
import { governorHome, HOOK_USAGE, runHookFlow, type HeadlessDecider } from './hookFlow';
import { TOOL_VERSION } from './toolVersion';

/** No extension governs the workspace: judge here (an `ask` goes back to the agent) and trace to the workspace's logs. */
export const decideHeadless: HeadlessDecider = async (request, root, intent, io) => {
  const trace = new JsonlTraceSink({ workspaceRoot: root, toolVersion: TOOL_VERSION, anchors: new FileAnchorStore(root) });
  try {
    const services = await createNodeServices({ root, approver: denyingApprover, trace });
    const bridge = new NativeToolBridge(new Governor(services), new FileBeforeStash(join(governorHome(io.env), 'bridge')), { askHuman: false });
    return await bridge.handle(intent ? { ...request, intent_id: intent } : request);
  } finally {
    await trace.close();
  }
};

export const hookCommand: CliCommand = {
  name: 'hook',
  summary: "Govern an agent's native tools: the hook command for VS Code, Claude Code, Cursor (JSON on stdin)",
  usage: HOOK_USAGE,
  run: (args, io) => runHookFlow(args, io, decideHeadless),
};
