import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { ChangeClass, ClassifiedFile } from '../changeClass/changeClass';
import { classifyChange } from '../changeClass/classifyChange';
import { contentHash } from '../contentHash';
import type { GovernorServices } from '../governorServices';
import type { Intent, IntentsSnapshot } from '../intents/intent';
import { resolveIntentForWrites } from '../intents/intentResolution';
import { canonicalizePath, type CanonicalPath, type PathPurpose } from '../paths/canonicalPath';
import { analyzeCommand, type CommandAnalysis } from '../commands/commandPolicy';
import type { ReadBasis } from '../policy/optimisticLock';
import { fail, ok, toolError, type Result } from '../toolError';
import type { GovernedTool } from './governedTool';
import type { ToolCall } from './toolCall';

export interface ResolvedPath extends CanonicalPath {
  field: string;
  purpose: PathPurpose;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

export function decodeText(bytes: Uint8Array | undefined): string | undefined {
  return bytes === undefined ? undefined : decoder.decode(bytes);
}

/**
 * The workspace as one call found it: the intents file loaded once, each path canonicalised once per purpose,
 * each file read and hashed once. Shared by every form the call takes (a hook's rewrite of its input; the
 * governed form of an agent's own call), so none of them reads anything twice or sees two versions of a file.
 */
class WorkspaceSeen {
  intents?: Promise<IntentsSnapshot>;
  readonly places = new Map<string, Promise<Result<CanonicalPath>>>();
  readonly contents = new Map<string, Promise<Uint8Array | undefined>>();
  readonly hashes = new Map<string, Promise<string | null>>();
}

/**
 * What the chain learns about one call, computed at most once and shared by the door, hooks and the tool: the
 * bound intent, canonical paths, current file contents and their hashes, the read basis and the proposed content.
 * Once computed, a fact never changes for the call (an immutable snapshot); the write path re-verifies it under
 * the write lock.
 */
export class CallFacts {
  private pathsMemo?: Promise<Result<ResolvedPath[]>>;
  private proposedMemo?: Promise<Result<string | null>>;
  private commandMemo?: CommandAnalysis;
  private readonly classified: { file: ClassifiedFile; verdict: ChangeClass }[] = [];
  private readonly bases = new Map<string, ReadBasis | undefined>();

  constructor(
    readonly call: ToolCall,
    readonly definition: GovernedTool,
    readonly services: GovernorServices,
    private readonly seen: WorkspaceSeen = new WorkspaceSeen(),
  ) {}

  /** The facts of another form of the same call (its input rewritten, or given in governed terms): same snapshot of the workspace. */
  withCall(call: ToolCall, definition: GovernedTool = this.definition): CallFacts {
    return new CallFacts(call, definition, this.services, this.seen);
  }

  get input(): Record<string, unknown> {
    return this.call.input;
  }

  intents(): Promise<IntentsSnapshot> {
    return (this.seen.intents ??= this.services.intents.load());
  }

  /** The session's bound intent, if it may write. */
  async boundIntent(): Promise<Result<Intent>> {
    const intentId = this.services.sessions.boundIntentId(this.call.session_id);
    return resolveIntentForWrites(await this.intents(), intentId);
  }

  /** Every path the input names, canonicalised for its purpose. */
  paths(): Promise<Result<ResolvedPath[]>> {
    return (this.pathsMemo ??= this.resolvePaths());
  }

  private async resolvePaths(): Promise<Result<ResolvedPath[]>> {
    const resolved: ResolvedPath[] = [];
    for (const use of this.definition.paths?.(this.input) ?? []) {
      const result = await this.place(use.path, use.purpose);
      if (!result.ok) return result;
      resolved.push({ ...result.value, field: use.field, purpose: use.purpose });
    }
    return ok(resolved);
  }

  /** Where the canonicaliser puts a path for a purpose, once per call. */
  place(path: string, purpose: PathPurpose): Promise<Result<CanonicalPath>> {
    const canonical = () => canonicalizePath(this.services.workspace.root, path, purpose, { caseInsensitive: this.services.caseInsensitive });
    if (typeof path !== 'string') return canonical(); // refused as it is, and never confused with a file of that name
    const key = `${purpose}\0${path}`;
    let placed = this.seen.places.get(key);
    if (!placed) {
      const found = canonical();
      this.seen.places.set(key, found);
      // The governed form names the file by its canonical spelling, which places the same: resolved once per call.
      found.then(
        (result) => {
          const alias = result.ok ? `${purpose}\0${result.value.rel}` : undefined;
          if (alias !== undefined && !this.seen.places.has(alias)) this.seen.places.set(alias, found);
        },
        () => undefined, // the caller awaiting `found` meets the failure
      );
      placed = found;
    }
    return placed;
  }

  /** The single file a file tool targets. */
  async target(): Promise<Result<ResolvedPath>> {
    const paths = await this.paths();
    if (!paths.ok) return paths;
    const target = paths.value.find((p) => p.field === 'path');
    return target ? ok(target) : fail(toolError('INVALID_INPUT', `${this.definition.name} needs a 'path'.`, { field: 'path' }));
  }

  /** Current bytes of a file, read once per call. */
  current(abs: string): Promise<Uint8Array | undefined> {
    let content = this.seen.contents.get(abs);
    if (!content) {
      content = this.services.workspace.readFile(abs);
      this.seen.contents.set(abs, content);
    }
    return content;
  }

  /** `sha256:` of a file's current bytes (null: no file), hashed once per call. */
  hash(abs: string): Promise<string | null> {
    let hash = this.seen.hashes.get(abs);
    if (!hash) {
      hash = this.current(abs).then((bytes) => (bytes === undefined ? null : contentHash(bytes)));
      this.seen.hashes.set(abs, hash);
    }
    return hash;
  }

  /**
   * What the agent based its change on: the hash it passed, else the session's last read of the file. Taken
   * once per call: a read the same session makes while this call waits for approval must not become its basis.
   */
  basis(rel: string): ReadBasis | undefined {
    if (!this.bases.has(rel)) this.bases.set(rel, this.readBasis(rel));
    return this.bases.get(rel);
  }

  private readBasis(rel: string): ReadBasis | undefined {
    const ledger = this.services.sessions.lastRead(this.call.session_id, rel);
    const expected = this.input.expected_content_hash;
    if (typeof expected === 'string') {
      return ledger && ledger.hash === expected ? ledger : { hash: expected };
    }
    return ledger;
  }

  /** The content a file tool would leave behind (null = deleted). */
  proposed(): Promise<Result<string | null>> {
    return (this.proposedMemo ??= this.propose());
  }

  private async propose(): Promise<Result<string | null>> {
    if (!this.definition.propose) return fail(toolError('INVALID_INPUT', `${this.definition.name} does not change files.`));
    const target = await this.target();
    if (!target.ok) return target;
    return this.definition.propose(this.input, decodeText(await this.current(target.value.abs)));
  }

  /**
   * AST_REFACTOR or INTENT_EVOLUTION for the file tool's proposed change, known before it lands (the approval
   * modal shows it; the write path computes it before taking the write lock, so parsing never holds the lock).
   * Undefined when the call proposes no change that could be read.
   */
  async proposedChangeClass(): Promise<ChangeClass | undefined> {
    const target = await this.target();
    const proposed = await this.proposed();
    if (!target.ok || !proposed.ok) return undefined;
    return this.changeClass({ path: target.value.rel, before: decodeText(await this.current(target.value.abs)), after: proposed.value ?? undefined });
  }

  /** One file's change class, computed once per call for the same path and contents. */
  changeClass(file: ClassifiedFile): ChangeClass {
    const known = this.classified.find((c) => c.file.path === file.path && c.file.before === file.before && c.file.after === file.after);
    if (known) return known.verdict;
    const verdict = classifyChange(file);
    this.classified.push({ file: { path: file.path, before: file.before, after: file.after }, verdict });
    return verdict;
  }

  /** The parsed and classified command of a run_command call. */
  command(): CommandAnalysis {
    const root = this.services.workspace.root;
    // Relative paths start where the command does; the cwd itself is canonicalised with the call's other paths.
    const cwd = typeof this.input.cwd === 'string' ? resolve(root, this.input.cwd) : root;
    return (this.commandMemo ??= analyzeCommand(String(this.input.command ?? ''), { workspaceRoot: root, cwd, homeDir: homedir() }));
  }
}
