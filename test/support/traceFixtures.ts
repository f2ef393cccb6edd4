import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAnchorStore } from '../../src/core/trace/anchorStore';
import type { FsyncMode } from '../../src/core/trace/chainedLog';
import { JsonlTraceSink } from '../../src/core/trace/traceWriter';
import type { GovernanceEvent, MutationEvent } from '../../src/core/trace/traceSink';

/** A real temp workspace plus its own anchor directory, removed by `dispose`. */
export interface TraceWorkspace {
  root: string;
  anchorDir: string;
  anchors: FileAnchorStore;
  trace: string;
  governance: string;
  sink(options?: { fsync?: FsyncMode }): JsonlTraceSink;
  dispose(): Promise<void>;
}

export async function traceWorkspace(): Promise<TraceWorkspace> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'ig-trace-')));
  const root = join(base, 'ws');
  const anchorDir = join(base, 'anchors');
  await mkdir(root);
  const anchors = new FileAnchorStore(root, anchorDir);
  return {
    root,
    anchorDir,
    anchors,
    trace: join(root, '.orchestration', 'agent_trace.jsonl'),
    governance: join(root, '.orchestration', 'governance_log.jsonl'),
    sink: (options = {}) => new JsonlTraceSink({ workspaceRoot: root, toolVersion: '0.1.0-test', anchors, fsync: options.fsync ?? 'never' }),
    dispose: () => rm(base, { recursive: true, force: true }),
  };
}

let counter = 0;

export function mutationEvent(overrides: Partial<MutationEvent> = {}): MutationEvent {
  counter += 1;
  return {
    timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, counter % 60)).toISOString(),
    invocation_id: `inv-${counter}`,
    session_id: 'session-1',
    agent: { name: 'claude-code', model_id: 'claude-sonnet-4-5' },
    intent_id: 'INT-001',
    tool: 'write_file',
    mutation_class: 'write',
    files: [{ path: 'src/app.ts', before: 'one\ntwo\nthree\n', after: 'one\nTWO\nthree\nfour\n' }],
    decision: 'allow',
    ...overrides,
  };
}

export function governanceEvent(overrides: Partial<GovernanceEvent> = {}): GovernanceEvent {
  counter += 1;
  return {
    timestamp: new Date(Date.UTC(2026, 0, 1, 13, 0, counter % 60)).toISOString(),
    invocation_id: `gov-${counter}`,
    session_id: 'session-1',
    agent: { name: 'cursor' },
    intent_id: 'INT-001',
    tool: 'write_file',
    decision: 'deny',
    code: 'SCOPE_VIOLATION',
    message: '"secrets/.env" is outside the owned scope of intent INT-001.',
    paths: ['secrets/.env'],
    ...overrides,
  };
}
