import {
  LineCounter,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
  type Document,
  type Node,
  type Pair,
  type YAMLMap,
} from 'yaml';
import { APPROVAL_MODES, isApprovalMode, type ApprovalMode } from '../approval/approvalMode';
import { parseMcpToolPattern } from '../approval/mcpToolPattern';
import { INTENT_NETWORK, INTENT_STATUSES, type Intent, type IntentNetwork, type IntentStatus, type IntentsFileProblem, type IntentsSnapshot, type McpToolClass, type McpToolRules, MCP_TOOL_CLASSES } from './intent';
import { ProblemList } from './problemList';
import { normalizeScopePattern, validateScopePattern } from './scopePattern';
import { statusHint } from './statusHint';

export const MAX_INTENTS = 1000;
export const MAX_SCOPE_PATTERNS_PER_INTENT = 200;
export const MAX_INTENT_ID_LENGTH = 128;

/** A parsed intents file plus what write-back needs to edit it in place. */
export interface ParsedIntentsFile {
  snapshot: IntentsSnapshot;
  /** Present when the snapshot is valid and the file holds a document. */
  document?: Document.Parsed;
  /** The map node of each intent, by id (valid files only). */
  intentNodes: Map<string, YAMLMap>;
}

/** `file:line:col: message`, the shape editors and terminals turn into links. */
export function formatProblem(p: IntentsFileProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

/** Reads `.orchestration/active_intents.yaml` text: every intent, or every problem (up to MAX_PROBLEMS) with its line and column. */
export function parseIntentsFile(text: string, file: string): IntentsSnapshot {
  return parseIntentsDocument(text, file).snapshot;
}

/** parseIntentsFile, keeping the yaml Document and node ranges that write-back splices at. */
export function parseIntentsDocument(text: string, file: string): ParsedIntentsFile {
  const lineCounter = new LineCounter();
  const problems = new ProblemList(file, lineCounter);
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false });
  const invalid = (): ParsedIntentsFile => ({
    snapshot: { valid: false, file, problems: problems.finish() },
    intentNodes: new Map(),
  });
  if (!Array.isArray(docs) || docs.length === 0) return { snapshot: { valid: true, file, exists: true, intents: [] }, intentNodes: new Map() };

  for (const doc of docs) {
    for (const error of doc.errors) problems.add(error.pos[0], `YAML syntax error: ${error.message}; ${syntaxHint(error.code)}`);
  }
  if (docs.length > 1) {
    problems.add(docs[1].range[0], `the file holds ${docs.length} YAML documents; keep a single one (remove the '---' separators)`);
  }
  if (problems.count > 0) return invalid();

  const document = docs[0];
  const reader = new IntentReader(document, problems);
  const intents = reader.readFile();
  const mcpTools = reader.readFileMcpTools();
  if (problems.count > 0) return invalid();
  return { snapshot: { valid: true, file, exists: true, intents, ...(mcpTools ? { mcp_tools: mcpTools } : {}) }, document, intentNodes: reader.nodes };
}

const SYNTAX_HINTS: Record<string, string> = {
  TAB_AS_INDENT: 'indent with spaces, not tabs',
  BAD_INDENT: 'check the indentation of this line against the lines above',
  DUPLICATE_KEY: 'each key may appear only once in a map; remove or rename one',
  MISSING_CHAR: 'add the missing closing character',
  BLOCK_AS_IMPLICIT_KEY: "quote values that contain ': '",
  MULTILINE_IMPLICIT_KEY: "a key must fit on one line and end with ':'",
};

function syntaxHint(code: string): string {
  return SYNTAX_HINTS[code] ?? 'fix the YAML syntax at this position';
}

/** How a value reads in a message: short, on one line, control characters visible. */
function shown(value: string): string {
  const oneLine = JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"');
  return oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine;
}

function describeValue(node: unknown): string {
  if (isSeq(node)) return 'a list';
  if (isMap(node)) return 'a map';
  if (isScalar(node)) {
    const v = node.value;
    if (v === null || v === undefined) return 'nothing';
    if (typeof v === 'string') return `the string '${shown(v)}'`;
    if (typeof v === 'number' || typeof v === 'bigint') return `the number ${String(v)}`;
    if (typeof v === 'boolean') return `the boolean ${String(v)}`;
    return `a ${typeof v}`;
  }
  return 'an unsupported value';
}

function quoteHint(node: unknown): string {
  return isScalar(node) && node.value !== null ? '; put it in quotes to make it text' : '';
}

class IntentReader {
  readonly nodes = new Map<string, YAMLMap>();
  private readonly idLines = new Map<string, number>();

  constructor(
    private readonly doc: Document.Parsed,
    private readonly problems: ProblemList,
  ) {}

  readFile(): Intent[] {
    const root = this.deref(this.doc.contents);
    if (root === null || root === undefined || (isScalar(root) && root.value === null)) return [];
    if (!isMap(root)) {
      this.problems.add(
        this.offset(root),
        `the top level must be a map with the key 'active_intents', found ${describeValue(root)}; start the file with 'active_intents:'`,
      );
      return [];
    }
    const pair = findPair(root, 'active_intents');
    if (!pair) {
      this.problems.add(
        this.offset(root),
        "missing the top-level key 'active_intents'; add 'active_intents:' followed by a list of intents, or 'active_intents: []'",
      );
      return [];
    }
    const list = this.deref(pair.value);
    // `active_intents:` with nothing after it reads as "no intents", like `[]`.
    if (list === null || (isScalar(list) && list.value === null)) return [];
    if (!isSeq(list)) {
      this.problems.add(
        this.offset(list, pair),
        `'active_intents' must be a list of intents, found ${describeValue(list)}; start each intent with '- id: ...'`,
      );
      return [];
    }
    const intents: Intent[] = [];
    list.items.forEach((item, index) => {
      if (index === MAX_INTENTS) {
        this.problems.add(
          this.offset(item, pair),
          `too many intents (${list.items.length}); at most ${MAX_INTENTS} are supported, remove DONE and ABANDONED ones`,
        );
      }
      if (index >= MAX_INTENTS) return;
      const intent = this.readIntent(item, index);
      if (intent) intents.push(intent);
    });
    return intents;
  }

  private readIntent(item: unknown, index: number): Intent | undefined {
    const entry = this.deref(item);
    if (!isMap(entry)) {
      this.problems.add(
        this.offset(item),
        `intent #${index + 1} must be a map with id, name, status and owned_scope, found ${describeValue(entry)}`,
      );
      return undefined;
    }
    const before = this.problems.count;
    const id = this.readId(entry, index);
    const label = id === undefined ? `intent #${index + 1}` : `intent '${shown(id)}'`;
    const name = this.readRequiredString(entry, 'name', label, 'add a short human-readable name');
    const status = this.readStatus(entry, label);
    const owned_scope = this.readScope(entry, label);
    const constraints = this.readStringList(entry, 'constraints', label);
    const acceptance_criteria = this.readStringList(entry, 'acceptance_criteria', label);
    const related = this.readStringList(entry, 'related', label);
    const owner = this.readOptionalString(entry, 'owner', label);
    const approval = this.readApproval(entry, label);
    const network = this.readNetwork(entry, label);
    const mcpTools = this.readMcpTools(entry, label);
    if (this.problems.count > before || id === undefined || name === undefined || status === undefined || !owned_scope) {
      return undefined;
    }
    this.nodes.set(id, entry);
    const intent: Intent = { id, name, status, owned_scope, constraints, acceptance_criteria, related };
    if (owner !== undefined) intent.owner = owner;
    if (approval !== undefined) intent.approval = approval;
    if (network !== undefined) intent.network = network;
    if (mcpTools !== undefined) intent.mcp_tools = mcpTools;
    return intent;
  }

  /** The file's top-level `mcp_tools` (beside `active_intents`): other MCP servers' tools every intent may call. */
  readFileMcpTools(): McpToolRules | undefined {
    const root = this.deref(this.doc.contents);
    return isMap(root) ? this.readMcpTools(root, 'the file') : undefined;
  }

  /**
   * `mcp_tools: { "<server>/<tool>": read | write | ask }` beside the older lists `allow: [...]` (write) and
   * `ask: [...]`. A key that is not a pattern, a class that is not one, or a list item that is not a pattern is a
   * problem at its line: a typo would otherwise leave a tool refused with no word why, or read wider than meant.
   */
  private readMcpTools(entry: YAMLMap, label: string): McpToolRules | undefined {
    const pair = findPair(entry, 'mcp_tools');
    if (!pair) return undefined;
    const node = this.deref(pair.value);
    if (isScalar(node) && node.value === null) return undefined;
    if (!isMap(node)) {
      this.problems.add(this.offset(node, pair), `${label}: 'mcp_tools' must be a map such as '{ "github/get_*": read, "github/create_issue": ask }', found ${describeValue(node)}`);
      return undefined;
    }
    const rules: McpToolRules = [];
    for (const item of node.items) {
      const keyNode = this.deref(item.key);
      const key = isScalar(keyNode) && keyNode.value !== null ? String(keyNode.value) : '';
      if (key === 'allow' || key === 'ask') {
        const list = this.deref(item.value);
        const cls = key === 'allow' ? 'write' : 'ask';
        this.readStringList(node, key, `${label}: mcp_tools`).forEach((text, index) => {
          const parsed = parseMcpToolPattern(text);
          if (typeof parsed === 'string') this.problems.add(this.offset(isSeq(list) ? list.items[index] : list, item), `${label}: mcp_tools.${key} item ${index + 1} ${parsed}`);
          else rules.push({ pattern: text, class: cls, written: `mcp_tools.${key} '${text}'` });
        });
        continue;
      }
      const parsed = parseMcpToolPattern(key);
      if (typeof parsed === 'string') {
        this.problems.add(this.offset(keyNode, item), `${label}: mcp_tools ${parsed}; write "<server>/<tool>": read, write or ask (or the lists allow: and ask:)`);
        continue;
      }
      const value = this.deref(item.value);
      const cls = isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
      if (cls === undefined || !(MCP_TOOL_CLASSES as readonly string[]).includes(cls)) {
        const found = cls === undefined ? describeValue(value) : `'${shown(cls)}'`;
        const hint = cls === 'allow' ? ' (allow is written write)' : cls === 'deny' ? ' (leave a tool out to refuse it)' : '';
        this.problems.add(this.offset(value, item), `${label}: mcp_tools '${shown(key)}' is ${found}, not one of ${MCP_TOOL_CLASSES.join(', ')}${hint}`);
        continue;
      }
      rules.push({ pattern: key, class: cls as McpToolClass, written: `mcp_tools '${key}': ${cls}` });
    }
    return rules;
  }

  /** Like approval: an unknown value is a problem, never a silent default that leaves the network open. */
  private readNetwork(entry: YAMLMap, label: string): IntentNetwork | undefined {
    const value = this.readOptionalString(entry, 'network', label);
    if (value === undefined || (INTENT_NETWORK as readonly string[]).includes(value)) return value as IntentNetwork | undefined;
    const pair = findPair(entry, 'network')!;
    this.problems.add(
      this.offset(this.deref(pair.value), pair),
      `${label}: network '${shown(value)}' is not one of ${INTENT_NETWORK.join(', ')}; use deny to run this intent's commands without network, or remove the line`,
    );
    return undefined;
  }

  /** An unknown mode is a problem, never a silent default: a typo must not turn asking off. */
  private readApproval(entry: YAMLMap, label: string): ApprovalMode | undefined {
    const value = this.readOptionalString(entry, 'approval', label);
    if (value === undefined || isApprovalMode(value)) return value;
    const pair = findPair(entry, 'approval')!;
    this.problems.add(
      this.offset(this.deref(pair.value), pair),
      `${label}: approval '${shown(value)}' is not one of ${APPROVAL_MODES.join(', ')}; use every-change to be asked before every write, or remove the line to use the editor's setting`,
    );
    return undefined;
  }

  private readId(entry: YAMLMap, index: number): string | undefined {
    const label = `intent #${index + 1}`;
    const pair = findPair(entry, 'id');
    if (!pair) {
      this.problems.add(this.offset(entry), `${label}: missing 'id'; add a unique id such as 'id: auth-refactor'`);
      return undefined;
    }
    const node = this.deref(pair.value);
    const at = this.offset(node, pair);
    if (!isScalar(node) || typeof node.value !== 'string') {
      this.problems.add(at, `${label}: 'id' must be a string, found ${describeValue(node)}${quoteHint(node)}`);
      return undefined;
    }
    const id = node.value;
    if (id.trim() === '') {
      this.problems.add(at, `${label}: 'id' is empty; give it a unique id such as 'auth-refactor'`);
      return undefined;
    }
    if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) {
      this.problems.add(at, `${label}: 'id' contains a control character (newline, tab…); use a one-line id such as 'auth-refactor'`);
      return undefined;
    }
    if (id.length > MAX_INTENT_ID_LENGTH) {
      this.problems.add(at, `${label}: 'id' is longer than ${MAX_INTENT_ID_LENGTH} characters; use a short id such as 'auth-refactor'`);
      return undefined;
    }
    const line = this.problems.position(at).line;
    const firstLine = this.idLines.get(id);
    if (firstLine !== undefined) {
      this.problems.add(
        at,
        `intent '${shown(id)}': id '${shown(id)}' is already used by the intent at line ${firstLine}; give each intent its own id`,
      );
      return undefined;
    }
    this.idLines.set(id, line);
    return id;
  }

  private readRequiredString(entry: YAMLMap, key: string, label: string, fix: string): string | undefined {
    const pair = findPair(entry, key);
    if (!pair) {
      this.problems.add(this.offset(entry), `${label}: missing '${key}'; ${fix}`);
      return undefined;
    }
    const node = this.deref(pair.value);
    if (!isScalar(node) || typeof node.value !== 'string') {
      this.problems.add(this.offset(node, pair), `${label}: '${key}' must be a string, found ${describeValue(node)}${quoteHint(node)}`);
      return undefined;
    }
    if (node.value.trim() === '') {
      this.problems.add(this.offset(node, pair), `${label}: '${key}' is empty; ${fix}`);
      return undefined;
    }
    return node.value;
  }

  private readOptionalString(entry: YAMLMap, key: string, label: string): string | undefined {
    const pair = findPair(entry, key);
    if (!pair) return undefined;
    const node = this.deref(pair.value);
    if (isScalar(node) && node.value === null) return undefined;
    if (!isScalar(node) || typeof node.value !== 'string') {
      this.problems.add(this.offset(node, pair), `${label}: '${key}' must be a string, found ${describeValue(node)}${quoteHint(node)}`);
      return undefined;
    }
    return node.value;
  }

  private readStatus(entry: YAMLMap, label: string): IntentStatus | undefined {
    const valid = INTENT_STATUSES.join(', ');
    const pair = findPair(entry, 'status');
    if (!pair) {
      this.problems.add(this.offset(entry), `${label}: missing 'status'; add one of ${valid} (IN_PROGRESS allows writes)`);
      return undefined;
    }
    const node = this.deref(pair.value);
    if (!isScalar(node) || typeof node.value !== 'string') {
      this.problems.add(this.offset(node, pair), `${label}: 'status' must be one of ${valid}, found ${describeValue(node)}`);
      return undefined;
    }
    const value = node.value;
    if (!(INTENT_STATUSES as readonly string[]).includes(value)) {
      this.problems.add(
        this.offset(node, pair),
        `${label}: status '${shown(value)}' is not one of ${valid}; ${statusHint(value)}`,
      );
      return undefined;
    }
    return value as IntentStatus;
  }

  private readScope(entry: YAMLMap, label: string): string[] | undefined {
    const pair = findPair(entry, 'owned_scope');
    if (!pair) {
      this.problems.add(
        this.offset(entry),
        `${label}: missing 'owned_scope'; add the workspace-relative globs it may write, e.g. owned_scope: ['src/auth/**'] (or [] for none)`,
      );
      return undefined;
    }
    const node = this.deref(pair.value);
    if (isScalar(node) && node.value === null) return [];
    if (!isSeq(node)) {
      const single = isScalar(node) && typeof node.value === 'string' ? `; write it as a list: owned_scope: ['${shown(node.value)}']` : '';
      this.problems.add(this.offset(node, pair), `${label}: 'owned_scope' must be a list of globs, found ${describeValue(node)}${single}`);
      return undefined;
    }
    const scope: string[] = [];
    for (const [index, raw] of node.items.entries()) {
      const item = this.deref(raw);
      if (index === MAX_SCOPE_PATTERNS_PER_INTENT) {
        this.problems.add(
          this.offset(item, raw),
          `${label}: too many owned_scope patterns (${node.items.length}); at most ${MAX_SCOPE_PATTERNS_PER_INTENT} are supported, use broader globs such as 'src/feature/**'`,
        );
      }
      if (index >= MAX_SCOPE_PATTERNS_PER_INTENT) break;
      if (!isScalar(item) || typeof item.value !== 'string') {
        this.problems.add(this.offset(item, raw), `${label}: owned_scope item ${index + 1} must be a glob string, found ${describeValue(item)}${quoteHint(item)}`);
        continue;
      }
      const reason = validateScopePattern(item.value);
      if (reason) {
        this.problems.add(this.offset(item, raw), `${label}: owned_scope pattern '${shown(item.value)}' is rejected: ${reason}`);
        continue;
      }
      scope.push(normalizeScopePattern(item.value));
    }
    return scope;
  }

  private readStringList(entry: YAMLMap, key: string, label: string): string[] {
    const pair = findPair(entry, key);
    if (!pair) return [];
    const node = this.deref(pair.value);
    if (isScalar(node) && node.value === null) return [];
    if (!isSeq(node)) {
      const single = isScalar(node) && typeof node.value === 'string' ? `; write it as a list item: '- ${shown(node.value)}'` : '';
      this.problems.add(this.offset(node, pair), `${label}: '${key}' must be a list of strings, found ${describeValue(node)}${single}`);
      return [];
    }
    const values: string[] = [];
    for (const [index, raw] of node.items.entries()) {
      const item = this.deref(raw);
      if (!isScalar(item) || typeof item.value !== 'string') {
        this.problems.add(this.offset(item, raw), `${label}: ${key} item ${index + 1} must be a string, found ${describeValue(item)}${quoteHint(item)}`);
        continue;
      }
      values.push(item.value);
    }
    return values;
  }

  /** Anchors and aliases are allowed: an alias reads as the node it points to. */
  private deref(node: unknown): unknown {
    return isAlias(node) ? node.resolve(this.doc) : node;
  }

  /** Where a node starts; a value that is absent points at its key instead, so the user still lands on the line. */
  private offset(node: unknown, fallback?: unknown): number {
    const own = rangeStart(node);
    if (own !== undefined && !(isScalar(node) && node.value === null && isPair(fallback))) return own;
    if (isPair(fallback)) return rangeStart(fallback.key) ?? own ?? 0;
    return rangeStart(fallback) ?? own ?? 0;
  }
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | undefined)?.range;
  return Array.isArray(range) ? range[0] : undefined;
}

/** The pair whose key is the scalar `key`, if any. */
export function findPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => isScalar(pair.key) && pair.key.value === key);
}
