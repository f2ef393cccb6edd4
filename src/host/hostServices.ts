import { agentById } from '../core/agents/registry';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { StandingApprovals } from '../core/approval/standingApprovals';
import { DEFAULT_POLICY, type GovernorServices } from '../core/governorServices';
import { IntentMapKeeper } from '../core/intentMap/intentMapKeeper';
import { FileIntentSource } from '../core/intents/fileIntentSource';
import { detectCaseInsensitive } from '../core/paths/canonicalPath';
import { WriteLocks } from '../core/policy/writeLocks';
import { SessionRegistry } from '../core/sessions/sessionRegistry';
import type { RecordSigner } from '../core/signing/recordSignature';
import type { FileAnchorStore } from '../core/trace/anchorStore';
import { createTraceStack } from '../core/trace/traceStack';
import type { JsonlTraceSink } from '../core/trace/traceWriter';
import { createApprovalDialogs } from './approval/approvalDialogs';
import { HookStatusBar } from './agents/hookStatusBar';
import { loggerFor } from './hostLogger';
import { LanguageModelHookExecutor } from './agents/languageModelHookExecutor';
import { ModalApprover } from './approval/modalApprover';
import type { VirtualDocuments } from './trace/virtualDocuments';
import { vscodeLanguageModels } from './tools/vscodeLanguageModels';
import { createVscodeWorkspace } from './vscodeWorkspace';

export interface HostServicesOptions {
  /** The workspace folder's file system path. */
  folderPath: string;
  /** `context.extension.packageJSON.version`, recorded in every trace record. */
  toolVersion: string;
  /** `context.globalStorageUri.fsPath`: where older versions kept the anchors (adopted once into the shared directory). */
  globalStoragePath: string;
  log: vscode.LogOutputChannel;
  documents: VirtualDocuments;
  /** The key trace records are signed with (SecretStorage, see signingKeyCommand.ts). */
  signer?: () => RecordSigner | undefined;
}

/** The services plus the concrete pieces the host drives directly (the watcher invalidates intents, verify reads anchors). */
export interface HostServices {
  services: GovernorServices;
  intents: FileIntentSource;
  anchors: FileAnchorStore;
  /** Closed on deactivation so the last records are flushed and the log handles released. */
  trace: JsonlTraceSink;
  /** The status bar item of running hooks' `statusMessage`s; disposed with the extension. */
  hookStatus: HookStatusBar;
  /** Keeps `.orchestration/intent_map.md`; flushed on deactivation so the last changes reach it. */
  intentMap: IntentMapKeeper;
}

/** The governor's ports for one folder: VS Code workspace, intents file, modal approvals, JSONL trace, the log channel. */
export async function createHostServices(options: HostServicesOptions): Promise<HostServices> {
  const workspace = await createVscodeWorkspace(options.folderPath);
  const root = workspace.root;
  const intents = new FileIntentSource(root);
  // The anchor directory every door shares (CLI, hooks, governor mcp), so `governor check` sees what we write.
  const { sink: trace, anchors } = createTraceStack({ workspaceRoot: root, toolVersion: options.toolVersion, legacyAnchorDir: join(options.globalStoragePath, 'anchors'), signer: options.signer, telemetryEndpoint: telemetrySetting() });
  const caseInsensitive = await detectCaseInsensitive(root);
  const hookStatusItem = vscode.window.createStatusBarItem('intentGovernor.hooks', vscode.StatusBarAlignment.Left, 99);
  hookStatusItem.name = 'Intent Governor: running hooks';
  const hookStatus = new HookStatusBar(hookStatusItem);
  const logger = loggerFor(options.log);
  const intentMap = new IntentMapKeeper({ workspaceRoot: root, intents, logger });
  const services: GovernorServices = {
    workspace,
    intents,
    sessions: new SessionRegistry({ agentLabel: (id) => agentById(id)?.label }),
    locks: new WriteLocks(root, caseInsensitive),
    approver: new ModalApprover(createApprovalDialogs(root, options.documents)),
    standingApprovals: new StandingApprovals(),
    trace,
    intentMap,
    logger,
    clock: () => new Date(),
    caseInsensitive,
    policy: { ...DEFAULT_POLICY },
    promptHooks: new LanguageModelHookExecutor(vscodeLanguageModels()),
    hookStatus,
  };
  return { services, intents, anchors, trace, hookStatus, intentMap };
}

/** intentGovernor.telemetry.otlpEndpoint: a machine setting (no workspace can point the export elsewhere). */
function telemetrySetting(): string | undefined {
  return vscode.workspace.getConfiguration('intentGovernor').get<string>('telemetry.otlpEndpoint')?.trim() || undefined;
}
