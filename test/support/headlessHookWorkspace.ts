import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApprovalMode } from '../../src/core/approval/approvalMode';
import { assertAgentTraceFile, type TraceRecord } from './agentTraceSchema';
import { createHarness, type Harness } from './governorHarness';
import { removeTree } from './removeTree';

export const LOGIN = 'export function login() {\n  return false;\n}\n';

/** What a `governor hook` process run headless works in: the sample workspace, a private governor home, its env. */
export interface HeadlessHookWorkspace {
  h: Harness;
  home: string;
  env: NodeJS.ProcessEnv;
  /** The Agent Trace records written so far, each checked against the schema. */
  traceRecords(): TraceRecord[];
  /** The governance log's entries (refusals, asks), in order. */
  governanceLog(): Promise<Record<string, unknown>[]>;
  dispose(): Promise<void>;
}

/** `intent` is the human's pick the hook sees (INTENT_GOVERNOR_INTENT); none by default, so a test names it. */
export async function headlessHookWorkspace(options: { intent?: string; files?: Record<string, string>; intents?: string; approvalSetting?: ApprovalMode | null } = {}): Promise<HeadlessHookWorkspace> {
  const h = await createHarness({ files: options.files ?? { 'src/auth/login.ts': LOGIN }, ...(options.intents === undefined ? {} : { intents: options.intents }), ...(options.approvalSetting === undefined ? {} : { approvalSetting: options.approvalSetting }) });
  const home = await mkdtemp(join(tmpdir(), 'ig-home-'));
  const orchestration = (name: string) => join(h.root, '.orchestration', name);
  return {
    h,
    home,
    env: { INTENT_GOVERNOR_HOME: home, INTENT_GOVERNOR_ANCHOR_DIR: join(home, 'anchors'), INTENT_GOVERNOR_INTENT: options.intent ?? '' },
    traceRecords: () => assertAgentTraceFile(orchestration('agent_trace.jsonl')) as unknown as TraceRecord[],
    governanceLog: async () => (await readFile(orchestration('governance_log.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>),
    async dispose() {
      await h.dispose();
      await removeTree(home);
    },
  };
}
