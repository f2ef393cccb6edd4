import * as vscode from 'vscode';
import { MemoryBeforeStash } from './core/bridge/beforeStash';
import { hookRoute } from './core/bridge/hookRoute';
import { agentHookRoute } from './core/bridge/agentHookRoute';
import { agentSweepMs } from './core/bridge/sessionAgents';
import { postsAnsweredEarly } from './core/bridge/earlyPosts';
import { hookTimingsRecorder } from './core/bridge/hookTimings';
import { governorHome } from './core/paths/governorHome';
import { sameFolder } from './core/paths/sameFolder';
import { NativeToolBridge } from './core/bridge/nativeToolBridge';
import { Governor } from './core/governor';
import { INTENTS_FILE_RELATIVE } from './core/intents/fileIntentSource';
import { WorkspaceSessions } from './core/sessions/workspaceSessions';
import { registerAgentSessionsView } from './host/agents/agentSessionCommands';
import { registerConnectAgentCommand } from './host/agents/connectAgentCommand';
import { startMcpHost, type McpHost } from './host/tools/mcpHost';
import { createExtensionApi, type IntentGovernorApi } from './host/extensionApi';
import type { GovernedFolder } from './host/governedFolder';
import { createHostServices } from './host/hostServices';
import { refreshHookLauncher } from './host/agents/hookLauncherHost';
import { registerDoctorCommand } from './host/agents/doctorCommand';
import { registerInstallHooksCommand } from './host/agents/installHooksCommand';
import { registerIntentCommands } from './host/intents/intentCommands';
import { IntentsDisplay } from './host/intents/intentsDisplay';
import { registerInspector } from './host/inspector/inspectorCommands';
import { InspectorModel } from './host/inspector/inspectorModel';
import { registerIntentsView } from './host/intents/intentTreeCommands';
import { watchIntentsFile } from './host/intents/intentsWatcher';
import { IntentStatusBar } from './host/intents/intentStatusBar';
import { registerLanguageModelTools } from './host/tools/languageModelTools';
import { registerShowHooksCommand } from './host/agents/showHooksCommand';
import { watchHookEvents } from './host/agents/hookEventWatchers';
import { createExtensionSigning, registerSigningKeyCommand } from './host/trace/signingKeyCommand';
import { ShutdownSequence } from './host/shutdownSequence';
import { bindPolicy } from './host/approval/policySettings';
import { registerTraceCommands } from './host/trace/traceCommands';
import { VirtualDocuments } from './host/trace/virtualDocuments';
import { registerWalkthrough } from './host/intents/walkthrough';
import { trackWalkthroughProgress } from './host/intents/walkthroughProgress';
import { detectSandbox } from './core/sandbox/sandboxDetection';
import { announceSandboxAtStartup, SandboxStatusBar } from './host/sandboxStatusBar';

/**
 * Activation only wires: the log channel first, then the governor for the first workspace folder, its
 * adapters, commands and tools, every disposable into context.subscriptions. Returns the public API
 * (see IntentGovernorApi), or undefined when no folder is open and the extension stays idle.
 */
export async function activate(context: vscode.ExtensionContext): Promise<IntentGovernorApi | undefined> {
  const log = vscode.window.createOutputChannel('Intent Governor', { log: true });
  context.subscriptions.push(log);
  // Agents' installed hooks run the per-user launcher: point it at this version, whether or not a folder is open.
  void refreshHookLauncher(context.asAbsolutePath('dist/hook.js'), log);

  // Single-root: the first folder is governed. Opening a first folder restarts the extension host, so an
  // idle window never needs to switch to governing later.
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') return activateIdle(context, log, 'no folder is open');
  if ((vscode.workspace.workspaceFolders?.length ?? 0) > 1) log.warn(`several folders are open; only ${folder.name} is governed`);

  const documents = new VirtualDocuments();
  context.subscriptions.push(documents);
  const signing = createExtensionSigning(context.secrets, log, folder.uri.fsPath);
  const host = await createHostServices({
    folderPath: folder.uri.fsPath,
    toolVersion: String(context.extension.packageJSON.version),
    globalStoragePath: context.globalStorageUri.fsPath,
    log,
    documents,
    signer: signing.current.get,
  }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  if (host instanceof Error) return activateIdle(context, log, `${folder.uri.fsPath} cannot be governed (${host.message})`);
  const { services, intents, anchors, trace } = host;
  const governor = new Governor(services);
  const agentSessions = new WorkspaceSessions(services.sessions, services.standingApprovals);
  const statusBar = new IntentStatusBar(agentSessions);
  const display = new IntentsDisplay(intents, agentSessions, statusBar, vscode.Uri.joinPath(folder.uri, INTENTS_FILE_RELATIVE));
  const governed: GovernedFolder = { folder, governor, services, agentSessions, anchors, display, documents, log };
  let mcp: McpHost | undefined;
  // deactivate awaits these: the trace's queued records and the MCP server's in-flight calls must land first.
  const shutdown = new ShutdownSequence(services.logger);
  shutdown.add('trace', () => trace.close());
  shutdown.add('intent map', () => host.intentMap.flush()); // runs before the trace closes (steps run last added first)
  shutdownOnDeactivate = shutdown;
  // The inspector and the Intents view count from one index of the logs.
  const inspector = new InspectorModel(folder, services.workspace.root, log);
  const intentsView = registerIntentsView({ governed, intents, inspector });
  const reloadIntents = () => display.reload().catch((error: unknown) => log.error(`reloading the intents file failed: ${String(error)}`));

  context.subscriptions.push(
    agentSessions,
    statusBar,
    host.hookStatus,
    display,
    shutdown,
    bindPolicy(services.policy, log),
    watchIntentsFile(folder, () => {
      void reloadIntents();
      host.intentMap.changed(); // the map shows each intent's name, status and scope
      // A standing approval ends when its intent's scope or status changes (the gate checks again on use).
      void intents.load().then((snapshot) => snapshot.valid && services.standingApprovals.reconcile(snapshot.intents), () => undefined);
    }),
    ...registerIntentCommands(governed),
    ...registerTraceCommands(governed),
    ...registerInspector(governed, context.extensionUri, inspector),
    ...intentsView.disposables,
    ...registerAgentSessionsView(governed),
    ...registerWalkthrough(context),
    trackWalkthroughProgress({ intents, sessions: agentSessions, inspector, root: services.workspace.root, folder, log }),
    registerConnectAgentCommand(() => mcp, context.globalStorageUri, { cliPath: context.asAbsolutePath('dist/cli.js'), workspaceRoot: services.workspace.root }),
    registerInstallHooksCommand(services.workspace.root, context.asAbsolutePath('dist/hook.js')),
    registerDoctorCommand(services.workspace.root, log),
    registerShowHooksCommand(governed),
    watchHookEvents(governed), // ConfigChange, FileChanged, CwdChanged: what VS Code itself sees happen
    registerSigningKeyCommand(governed, signing),
    ...registerLanguageModelTools(governor),
  );
  await reloadIntents();
  // Agents' native changes this window allowed are on disk until their post event; a closed window leaves them for the next governor.
  // Its routes take any caller with the token: posts only for pres answered here, and the human's pick, never a request's intent.
  const bridge = new NativeToolBridge(governor, new MemoryBeforeStash(), { askHuman: true, resident: true, routes: { requestIntents: false } });
  context.subscriptions.push(bridge.startReconciling(), bridge.watchAgents(agentSweepMs(process.env))); // a killed agent's hook session ends within a minute
  shutdown.add('agent changes', () => bridge.close()); // changes whose post the agent never sends: completed before the trace closes
  mcp = await startMcpHost({
    governor,
    version: String(context.extension.packageJSON.version),
    logger: services.logger,
    secrets: context.secrets,
    state: context.globalState,
    workspaceFolders: [services.workspace.root],
    sessions: agentSessions,
    // Agents' native tools (governor hook) are judged here, with the approval modal and this trace.
    hookRoutes: [
      hookRoute(bridge),
      agentHookRoute({
        decide: (request, signal) => bridge.handle(request, signal),
        governs: (root) => sameFolder(root, services.workspace.root),
        env: process.env,
        intentFromEnv: false,
        answerPostEarly: postsAnsweredEarly(services.workspace.root, services.governorHome ?? governorHome(), (request) => bridge.claimPost(request)),
        answered: hookTimingsRecorder(process.env),
        logger: services.logger,
      }),
    ],
  }).catch((error: unknown) => {
    log.error(`the MCP server could not start: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
  if (mcp) {
    const started = mcp;
    context.subscriptions.push(started);
    shutdown.add('MCP server', () => started.close());
  }
  log.info(`governing ${services.workspace.root} (trusted: ${services.policy.trusted}, approval: ${services.policy.approval})`);
  // Whether commands run confined, said once at startup; probed in the background so activation does not wait.
  const sandboxStatus = new SandboxStatusBar(vscode.window.createStatusBarItem('intentGovernor.sandbox', vscode.StatusBarAlignment.Left, 98), new vscode.ThemeColor('statusBarItem.warningBackground'));
  context.subscriptions.push(sandboxStatus);
  void announceSandboxAtStartup(detectSandbox, services.logger, sandboxStatus);
  return createExtensionApi(context.subscriptions, { governor, trace, statusText: () => statusBar.text, mcpUrl: () => mcp?.server.url, hookStatusText: () => host.hookStatus.text, intentsView: intentsView.rows });
}

/** No folder to govern: commands and tools still exist (they are contributed) and say what is missing. */
function activateIdle(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, why: string): undefined {
  context.subscriptions.push(
    ...registerIntentCommands(undefined),
    ...registerTraceCommands(undefined),
    ...registerInspector(undefined, context.extensionUri),
    ...registerIntentsView(undefined).disposables,
    ...registerAgentSessionsView(undefined),
    ...registerWalkthrough(context),
    registerConnectAgentCommand(),
    registerInstallHooksCommand(undefined, context.asAbsolutePath('dist/hook.js')),
    registerDoctorCommand(undefined, log),
    registerShowHooksCommand(undefined),
    registerSigningKeyCommand(undefined, undefined),
    ...registerLanguageModelTools(undefined),
  );
  log.info(`idle: ${why}`);
  return undefined;
}

/** Set while a folder is governed: what `deactivate` must finish. */
let shutdownOnDeactivate: ShutdownSequence | undefined;

/** VS Code awaits this (for a few seconds) before the extension host exits: the flushes a dispose would cut short. */
export function deactivate(): Promise<void> | undefined {
  return shutdownOnDeactivate?.run();
}
