// Every message between the trace inspector webview and the extension host, one discriminated union per
// direction. Both sides import this file (the host from src/host, the webview from webview-ui), so a
// renamed field is a type error on both ends instead of a silent `undefined` in the other world.
// Types only: nothing here may pull Node or DOM code into either bundle.

/** Which log a row came from: the Agent Trace (changes) or the governance log (refusals, rejections, errors). */
export type RowSource = 'trace' | 'governance';

/** One timeline row: what the list shows, no more (the full record is fetched on demand by key). */
export interface InspectorRow {
  /** Stable for the life of the panel: the row's position in the host's index. */
  key: number;
  source: RowSource;
  /** 1-based line in its log. */
  line: number;
  id: string;
  timestamp: string;
  intent: string;
  agent: string;
  model: string;
  /** `allow | approved` for changes, `deny | reject | error` for governance events. */
  decision: string;
  /** `mutation`, `governance`, `recovery`, `discontinuity`. */
  kind: string;
  /** The governance code (`SCOPE_VIOLATION`, `STALE_FILE`, …) for governance rows. */
  code: string;
  /** `AST_REFACTOR` or `INTENT_EVOLUTION` for a classified change; empty for anything else. */
  mutationClass: string;
  /** Paths the row touched or was refused for. */
  files: string[];
}

/** Every field that is set must match; empty strings are treated as unset by the host. */
export interface InspectorFilter {
  intent?: string;
  /** Substring of a path, or a glob when it contains `*` or `?`. */
  file?: string;
  agent?: string;
  model?: string;
  decision?: string;
  /** `AST_REFACTOR` or `INTENT_EVOLUTION`. */
  mutationClass?: string;
  source?: RowSource;
  /** ISO timestamps, inclusive. */
  since?: string;
  until?: string;
  /**
   * A git ref (a branch, tag or commit): only what the branch added since its merge base with HEAD, as
   * `governor report --base REF` lists it (a pull request's view).
   */
  branchBase?: string;
}

export interface RangeDetail {
  startLine: number;
  endLine: number;
  contentHash?: string;
}

export interface FileDetail {
  path: string;
  change?: string;
  beforeHash?: string;
  afterHash?: string;
  ranges: RangeDetail[];
  /** Lines the change touched (sum of range lengths); a proxy for diff size the record can prove. */
  changedLines: number;
}

/** One record opened in the detail pane. */
export interface RecordDetail {
  row: InspectorRow;
  files: FileDetail[];
  approver?: string;
  session?: string;
  invocation?: string;
  tool?: string;
  /** The change class, and the rule that decided it and why (absent on records older than change classes). */
  mutationClass?: string;
  mutationClassRule?: string;
  mutationClassReason?: string;
  /** write, edit, delete, command. */
  operation?: string;
  message?: string;
  hash?: string;
  prevHash?: string;
  /** Who signed the record, as verify judges it now: `signed by alice (ed25519:…)`, `UNSIGNED (…)`, … */
  signer?: string;
  /** The raw JSON line, pretty-printed, for anything the pane does not lay out. */
  raw: string;
}

/** The verify result of one log, as the header shows it. */
export interface ChainStatus {
  log: string;
  status: 'verified' | 'merged' | 'tampered' | 'empty' | 'unknown';
  /** `verified (12 records, 1 chain, anchor matched)` or `TAMPERED at line 7: …`. */
  text: string;
  firstBadLine?: number;
}

export interface IntentSummary {
  id: string;
  name: string;
  status: string;
  scope: string[];
  changes: number;
  governanceEvents: number;
  lastActivity?: string;
}

/** Changes per intent per time bucket, for the inline SVG chart. */
export interface ActivityChart {
  /** Start of each bucket (ISO), equal widths. */
  buckets: string[];
  series: { intent: string; counts: number[] }[];
}

/** Distinct values for the filter drop-downs. */
export interface Facets {
  intents: string[];
  agents: string[];
  models: string[];
  decisions: string[];
}

export interface InspectorSummary {
  total: number;
  facets: Facets;
  intents: IntentSummary[];
  chart: ActivityChart;
}

/** What the webview persists with `setState` and the serializer hands back after a reload. */
export interface InspectorViewState {
  filter: InspectorFilter;
  tab: 'timeline' | 'intents';
  selectedId?: string;
}

/** What an `added since ref` filter compared with (`said`), or why it could not (`problem`). */
export type BranchNote = { said: string } | { problem: string };

/** Host → webview. */
export type HostMessage =
  | { type: 'summary'; summary: InspectorSummary }
  | { type: 'chain'; chain: ChainStatus[] }
  /**
   * Answer to a `query`; `seq` lets the webview drop answers to filters it has moved past. `partial`: from
   * the newest records only, while the host still indexes the logs; a `summary` follows when it is done.
   * `branch`: with `branchBase`, what the rows were compared with, or why they could not be.
   */
  | { type: 'page'; seq: number; total: number; start: number; rows: InspectorRow[]; partial: boolean; branch?: BranchNote }
  /** New records arrived: the webview re-queries what it shows. */
  | { type: 'appended'; added: number; total: number }
  | { type: 'detail'; detail: RecordDetail }
  /** Show one record (a blame hover's link); `key` is absent when the index does not hold it (yet). */
  | { type: 'focus'; recordId: string; key?: number }
  /** Show one intent's timeline (Show in Trace Inspector in the Intents view). */
  | { type: 'showIntent'; intent: string };

/** Webview → host. */
export type WebviewMessage =
  /** The page is up; `selectedId` is the record it showed before a reload, to open again. */
  | { type: 'ready'; selectedId?: string }
  | { type: 'query'; seq: number; filter: InspectorFilter; start: number; count: number }
  | { type: 'openRecord'; key: number }
  | { type: 'openAtRange'; path: string; startLine: number; endLine: number }
  /** The Intents tab's link: rebuild `.orchestration/intent_map.md` and open it beside the inspector. */
  | { type: 'openIntentMap' }
  | { type: 'verify' };
