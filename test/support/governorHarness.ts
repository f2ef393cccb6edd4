import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { removeTree } from './removeTree';
import type { GovernedResult } from '../../src/core/flow/callRequest';
import { Governor } from '../../src/core/governor';
import { DEFAULT_POLICY, type GovernancePolicy, type GovernorServices } from '../../src/core/governorServices';
import type { ApprovalMode } from '../../src/core/approval/approvalMode';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../src/core/approval/approver';
import type { Logger } from '../../src/core/logger';
import { createNodeServices } from '../../src/core/nodeServices';
import { agentById } from '../../src/core/agents/registry';
import type { GovernanceEvent, MutationEvent, TraceSink, WriteAhead } from '../../src/core/trace/traceSink';

/** Answers approvals from a script (true = approve) and remembers every request a human would have seen. */
export class ScriptedApprover implements Approver {
  /** Stands in for a person at the modal. */
  readonly interactive = true;
  readonly requests: ApprovalRequest[] = [];
  constructor(private readonly answers: boolean[] = []) {}
  script(...answers: boolean[]): void {
    this.answers.push(...answers);
  }
  async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    this.requests.push(request);
    const answer = this.answers.shift();
    if (answer === undefined) throw new Error(`unexpected approval request: ${request.title}`);
    return { approved: answer, approver: 'test-human' };
  }
}

export class RecordingTrace implements TraceSink {
  readonly mutations: MutationEvent[] = [];
  readonly governance: GovernanceEvent[] = [];
  /** Landed or abandoned, by record index: what the write path reported after its write-ahead record. */
  readonly settled: ('landed' | 'abandoned')[] = [];
  async recordMutation(event: MutationEvent): Promise<void> {
    this.mutations.push(event);
  }
  async recordAhead(event: MutationEvent): Promise<WriteAhead> {
    const index = this.mutations.push(event) - 1;
    return {
      landed: async () => void (this.settled[index] = 'landed'),
      abandoned: async () => void (this.settled[index] = 'abandoned'),
    };
  }
  async recordGovernance(event: GovernanceEvent): Promise<void> {
    this.governance.push(event);
  }
}

export class RecordingLogger implements Logger {
  readonly lines: string[] = [];
  info(message: string) {
    this.lines.push(`info ${message}`);
  }
  warn(message: string) {
    this.lines.push(`warn ${message}`);
  }
  error(message: string) {
    this.lines.push(`error ${message}`);
  }
}

export const SAMPLE_INTENTS = `# The plan for the sample project
active_intents:
  - id: auth-refactor
    name: Refactor authentication
    status: IN_PROGRESS
    owned_scope:
      - src/auth/**
      - test/auth/**
    constraints:
      - Keep the public login() signature
    acceptance_criteria:
      - All auth tests pass
  - id: docs
    name: Document the API
    status: PLANNED
    owned_scope:
      - docs/**
`;

export interface Harness {
  root: string;
  governor: Governor;
  approver: ScriptedApprover;
  trace: RecordingTrace;
  logger: RecordingLogger;
  /** Calls a tool as agent `test-agent` in session `s1` unless told otherwise. */
  call(tool: string, input: unknown, session?: string): Promise<GovernedResult>;
  /** Selects the intent, then calls. */
  bound(tool: string, input: unknown, intentId?: string, session?: string): Promise<GovernedResult>;
  file(rel: string, content: string): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * `approvalSetting`: the workspace's `intentGovernor.approval` in .vscode/settings.json, which the CLI doors a test
 * spawns on `root` read (null: no settings file, so the default, every-change). By default it is the in-process
 * governor's mode, so both kinds of door in one test agree.
 */
export async function createHarness(options: { files?: Record<string, string>; intents?: string | null; policy?: Partial<GovernancePolicy>; sandbox?: GovernorServices['sandbox']; approvalSetting?: ApprovalMode | null; parent?: string } = {}): Promise<Harness> {
  const root = await realpath(await mkdtemp(join(options.parent ?? tmpdir(), 'ig-harness-')));
  const file = async (rel: string, content: string) => {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), content);
  };
  if (options.intents !== null) await file('.orchestration/active_intents.yaml', options.intents ?? SAMPLE_INTENTS);
  const approvalSetting = options.approvalSetting === undefined ? (options.policy?.approval ?? DEFAULT_POLICY.approval) : options.approvalSetting;
  if (approvalSetting !== null) await file('.vscode/settings.json', `${JSON.stringify({ 'intentGovernor.approval': approvalSetting }, null, 2)}\n`);
  for (const [rel, content] of Object.entries(options.files ?? {})) await file(rel, content);
  const approver = new ScriptedApprover();
  const trace = new RecordingTrace();
  const logger = new RecordingLogger();
  const services = await createNodeServices({ root, approver, trace, logger, policy: options.policy, agentLabel: (id) => agentById(id)?.label });
  if (options.sandbox) services.sandbox = options.sandbox;
  const governor = new Governor(services);
  const call = (tool: string, input: unknown, session = 's1') =>
    governor.run({ tool, input, session_id: session, agent: { name: 'test-agent', model_id: 'test-model' } }, { mode: 'execute' });
  return {
    root,
    governor,
    approver,
    trace,
    logger,
    call,
    async bound(tool, input, intentId = 'auth-refactor', session = 's1') {
      const selected = await call('select_active_intent', { intent_id: intentId }, session);
      if (!selected.ok) throw new Error(`select failed: ${selected.error.message}`);
      return call(tool, input, session);
    },
    file,
    dispose: () => removeTree(root),
  };
}

/** The error code of a refused call, or 'ok'. */
export function codeOf(result: GovernedResult): string {
  return result.ok ? 'ok' : result.error.code;
}
