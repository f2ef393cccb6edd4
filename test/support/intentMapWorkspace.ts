import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GovernedResult } from '../../src/core/flow/callRequest';
import { Governor } from '../../src/core/governor';
import { IntentMapKeeper } from '../../src/core/intentMap/intentMapKeeper';
import { INTENT_MAP_FILE } from '../../src/core/intentMap/intentMapMarkdown';
import { createNodeServices } from '../../src/core/nodeServices';
import { createTraceStack } from '../../src/core/trace/traceStack';
import type { JsonlTraceSink } from '../../src/core/trace/traceWriter';

export const MAP_INTENTS = `active_intents:
  - id: auth-refactor
    name: Refactor authentication
    status: IN_PROGRESS
    owned_scope:
      - src/auth/**
    constraints: []
    acceptance_criteria: []
  - id: billing
    name: Billing fixes
    status: IN_PROGRESS
    owned_scope:
      - src/billing/**
      - src/shared/**
    constraints: []
    acceptance_criteria: []
  - id: docs
    name: Document the API
    status: PLANNED
    owned_scope:
      - docs/**
    constraints: []
    acceptance_criteria: []
`;

/**
 * A real workspace governed the way `governor mcp` governs one: the JSONL trace with its anchors, and an
 * IntentMapKeeper told by the post-chain. Calls go through Governor.run (execute) as agent `test-agent`.
 */
export interface MapWorkspace {
  base: string;
  root: string;
  anchorDir: string;
  governor: Governor;
  keeper: IntentMapKeeper;
  sink: JsonlTraceSink;
  /** Binds `session` to `intent` once, then calls. */
  as(intent: string, tool: string, input: unknown): Promise<GovernedResult>;
  /** The map on disk after every pending rebuild finished. */
  map(): Promise<string>;
  file(rel: string, content: string): Promise<void>;
  read(rel: string): Promise<string>;
  dispose(): Promise<void>;
}

export async function mapWorkspace(options: { intents?: string; delayMs?: number } = {}): Promise<MapWorkspace> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'ig-intent-map-')));
  const root = join(base, 'ws');
  const anchorDir = join(base, 'anchors');
  const file = async (rel: string, content: string) => {
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), content);
  };
  await file('.orchestration/active_intents.yaml', options.intents ?? MAP_INTENTS);
  const { sink } = createTraceStack({ workspaceRoot: root, toolVersion: '0.1.0-test', anchorDir, fsync: 'never' });
  const keeper = new IntentMapKeeper({ workspaceRoot: root, delayMs: options.delayMs ?? 20 });
  const services = await createNodeServices({ root, approver: { async approve() { return { approved: true, approver: 'test-human' }; } }, trace: sink });
  const governor = new Governor({ ...services, intentMap: keeper });
  const bound = new Set<string>();
  return {
    base,
    root,
    anchorDir,
    governor,
    keeper,
    sink,
    async as(intent, tool, input) {
      const session = `session-${intent}`;
      if (!bound.has(intent)) {
        const selected = await governor.run({ tool: 'select_active_intent', input: { intent_id: intent }, session_id: session, agent: { name: 'test-agent' } }, { mode: 'execute' });
        if (!selected.ok) throw new Error(`select ${intent}: ${selected.error.message}`);
        bound.add(intent);
      }
      return governor.run({ tool, input, session_id: session, agent: { name: 'test-agent', model_id: 'test-model' } }, { mode: 'execute' });
    },
    async map() {
      await keeper.flush();
      return readFile(join(root, INTENT_MAP_FILE), 'utf8');
    },
    file,
    read: (rel) => readFile(join(root, rel), 'utf8'),
    async dispose() {
      await keeper.flush();
      await sink.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** One file row of the map, as a reader of the Markdown sees it. */
export interface MapFileRow {
  path: string;
  lines: string;
  records: string;
  changes: number;
  last: string;
}

export interface MapSection {
  heading: string;
  bullets: string[];
  files: MapFileRow[];
  refusals: { code: string; count: number; last: string }[];
}

/** The map's sections by intent id (`(none)` for changes with no intent), read back from the Markdown. */
export function parseIntentMap(text: string): Map<string, MapSection> {
  const sections = new Map<string, MapSection>();
  let current: MapSection | undefined;
  let table: 'files' | 'refusals' | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) {
      const heading = line.slice(3);
      current = { heading, bullets: [], files: [], refusals: [] };
      sections.set(heading === 'No intent bound' ? '(none)' : heading.split(':')[0], current);
      table = undefined;
      continue;
    }
    if (!current) continue;
    if (line.startsWith('- ')) current.bullets.push(line.slice(2));
    else if (line.startsWith('| File |')) table = 'files';
    else if (line.startsWith('| Refused |')) table = 'refusals';
    else if (line.startsWith('| ---')) continue;
    else if (line.startsWith('| ') && table) {
      const cells = line.slice(2, -2).split(' | ');
      if (table === 'files') current.files.push({ path: cells[0].replace(/^`|`$/g, ''), lines: cells[1], records: cells[2], changes: Number(cells[3]), last: cells[4] });
      else current.refusals.push({ code: cells[0], count: Number(cells[1]), last: cells[2] });
    } else if (line === '') table = undefined;
  }
  return sections;
}
