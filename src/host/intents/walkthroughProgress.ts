import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { IntentSource } from '../../core/intents/intent';
import type { WorkspaceSessions } from '../../core/sessions/workspaceSessions';
import type { InspectorModel } from '../inspector/inspectorModel';
import { watchIntentsFile } from './intentsWatcher';

/**
 * The walkthrough's steps tick from what is true, not from a command having run: each step's completion event
 * is one of these context keys (package.json, `onContext:`). They are set here from activation on, whether or
 * not any view is visible (the Intents view's own key is set only once the view renders, so a walkthrough
 * waiting for it never ticked). No command's run ticks a step either: progress while a command's picker is
 * open re-renders the Get started page under it.
 */
export const WALKTHROUGH_KEYS = {
  plan: 'intentGovernor.walkthrough.plan',
  intentBound: 'intentGovernor.walkthrough.intentBound',
  agentConnected: 'intentGovernor.walkthrough.agentConnected',
  recordWritten: 'intentGovernor.walkthrough.recordWritten',
} as const;

type Step = keyof typeof WALKTHROUGH_KEYS;

const LOGS = ['agent_trace.jsonl', 'governance_log.jsonl'];

/** How long after activation the first true values are published (see trackWalkthroughProgress). */
const REGISTRATION_SETTLE_MS = 2000;

export interface WalkthroughTruth {
  intents: IntentSource;
  sessions: WorkspaceSessions;
  /** Its onDidChangeLogs says a log changed on disk. */
  inspector: Pick<InspectorModel, 'onDidChangeLogs'>;
  root: string;
  folder: vscode.WorkspaceFolder;
  log: vscode.LogOutputChannel;
}

export function trackWalkthroughProgress(truth: WalkthroughTruth): vscode.Disposable {
  const state: Record<Step, boolean | undefined> = { plan: undefined, intentBound: undefined, agentConnected: undefined, recordWritten: undefined };
  const set = (step: Step, value: boolean, why: string) => {
    if (state[step] === value) return;
    const first = state[step] === undefined;
    state[step] = value;
    void vscode.commands.executeCommand('setContext', WALKTHROUGH_KEYS[step], value);
    // Logged once at start-up and at each change, so a step that does not tick can be told from one that should not.
    truth.log.info(`walkthrough: ${WALKTHROUGH_KEYS[step]} = ${value}${first ? ' at start-up' : ''} (${why})`);
  };
  const plan = async () => {
    const snapshot = await truth.intents.load().catch(() => undefined);
    const has = snapshot?.valid === true && snapshot.intents.length > 0;
    set('plan', has, snapshot === undefined ? 'the intents file could not be read' : !snapshot.valid ? 'the intents file is invalid' : `${snapshot.intents.length} intent(s) in the plan`);
  };
  const sessions = () => {
    const live = truth.sessions.list();
    const pick = truth.sessions.defaultIntent();
    const bound = pick !== undefined || live.some((session) => session.intent.kind === 'own');
    set('intentBound', bound, pick !== undefined ? `the person picked ${pick}` : bound ? 'an agent session selected its intent' : 'no intent picked');
    // Once an agent connected the step stays done for this window, even after its session ends.
    if (live.length > 0 || state.agentConnected !== true) set('agentConnected', state.agentConnected === true || live.length > 0, `${live.length} agent session(s)`);
  };
  // A non-empty log is a record written: a stat, not an index of what may be a large trace.
  const records = async () => {
    const sizes = await Promise.all(LOGS.map((name) => stat(join(truth.root, '.orchestration', name)).then((s) => s.size, () => 0)));
    const written = sizes.some((size) => size > 0);
    if (written || state.recordWritten !== true) set('recordWritten', state.recordWritten === true || written, written ? 'the logs hold records' : 'no record yet');
  };
  // VS Code's walkthrough service counts a context key that already holds when it registers the walkthrough as
  // seen, and then never ticks its step (seen on 1.139: the demo's plan stayed unticked). So every key starts
  // false, and what is true follows once the workbench has registered the walkthrough.
  for (const key of Object.values(WALKTHROUGH_KEYS)) void vscode.commands.executeCommand('setContext', key, false);
  const settle = setTimeout(() => {
    void plan();
    sessions();
    void records();
  }, REGISTRATION_SETTLE_MS);
  const stopSessions = truth.sessions.onDidChange(sessions);
  const stopPick = truth.sessions.onDidChangePick(sessions);
  return vscode.Disposable.from(
    watchIntentsFile(truth.folder, () => void plan()),
    truth.inspector.onDidChangeLogs(() => void records()),
    { dispose: () => (clearTimeout(settle), stopSessions(), stopPick()) },
  );
}
