import type { ShNode, ShParseError } from 'mvdan-sh';
import { shSyntax } from './mvdanSh';
import { expandWord, plainWord, singleWord, SourceText, type ShellWord } from './shellWords';
import { changeDirectory, directoriesOf, directoryChange, NOWHERE, STARTING, STARTING_PLACES, stays, unionPlaces, type Directories, type Outcome, type Places } from './workingDirectory';

export type { ShellWord } from './shellWords';

/** `op` is the shell operator ('>', '>>', '<', '&>', '&>>', '>|', '<>', '<<', '<<-', '<<<', '>&', '<&'). */
export interface ShellRedirect {
  op: string;
  target: ShellWord; // for heredocs, the delimiter
  fd?: string;
  heredoc?: ShellWord; // the body of `<<` / `<<-`: data for the command, not commands
}

export interface SimpleCommand {
  argv: ShellWord[]; // empty for a bare redirect (`> f`) or a compound command's own redirects (`{ …; } > f`)
  redirects: ShellRedirect[];
  assignments: ShellWord[]; // NAME=value prefixes, and the assignments of export/declare/local/readonly
  directories: Directories; // where it may run, relative to where the command line starts (null: unknown)
  background: boolean;
  pipedFrom: number[]; // indices of the commands whose output reaches this one's stdin through a pipe
  substitutions: number[]; // indices of the commands whose output lands in its words: $(…), `…`, <(…)
  inFunction?: string; // the function whose body holds this command
}

/** `for NAME in ITEMS`: NAME takes each item in turn (null: the positional parameters, only known at run time). */
export interface LoopVariable {
  name: string;
  items: ShellWord[] | null;
  directories: Directories; // where the items are expanded, as for a command
}

export type ShellParse =
  /** `leaves`: where the shell itself may be once the line ran ('' = where it started; null = unknown). */
  | { ok: true; commands: SimpleCommand[]; loops: LoopVariable[]; dynamic: string[]; leaves: Directories }
  | { ok: false; error: string };

// Beyond this an agent is not sending a command line but a payload; nobody can review it anyway.
const MAX_COMMAND_LENGTH = 65_536;

// mvdan-sh's token numbers (syntax.RedirOperator / BinCmdOperator in the Go source).
const REDIRECT_OPS: Record<number, string> = {
  54: '>', 55: '>>', 56: '<', 57: '<>', 58: '<&', 59: '>&', 60: '>|', 61: '<<', 62: '<<-', 63: '<<<', 64: '&>', 65: '&>>',
};
const PIPE_OPS = new Set([12, 13]); // | and |&
const AND_OP = 10; // && (11 is ||)

/** Constructs whose effect cannot be read off the text; each makes the command unknowable. */
const DYNAMIC_NODES: Record<string, (node: ShNode) => string | null> = {
  CmdSubst: (n) => (n.Backquotes ? 'backticks' : 'command substitution $(…)'),
  ProcSubst: () => 'process substitution',
  SglQuoted: (n) => (n.Dollar ? "ANSI-C quoting $'…'" : null),
  DblQuoted: (n) => (n.Dollar ? 'locale quoting $"…"' : null),
  FuncDecl: () => 'function definition',
};

/** Builtins that run text as code; the text is not visible to us. */
const CODE_BUILTINS = new Map([['eval', 'eval'], ['source', 'source'], ['.', 'source']]);

interface Context {
  background: boolean;
  pipedFrom: number[];
  inFunction?: string;
  places: Places; // where the shell may be when this runs
}

// Compound commands whose bodies may run zero, one or many times: a cd inside them is not followed.
const SEQUENTIAL = new Set(['Block', 'Subshell']);

/** Parses a command line (Bash grammar) into every simple command it would run, in source order. */
export function parseShell(command: string): ShellParse {
  if (command.length > MAX_COMMAND_LENGTH) return { ok: false, error: `command longer than ${MAX_COMMAND_LENGTH} characters` };
  // A shell never sees past a NUL (argv strings end there); refuse rather than guess which half runs.
  if (command.includes('\0')) return { ok: false, error: 'command contains a NUL character' };
  const sh = shSyntax();
  let file: ShNode;
  try {
    file = sh.NewParser().Parse(command, 'cmd');
  } catch (e) {
    return { ok: false, error: parseErrorText(e) }; // also the parser's own RangeError on absurd nesting
  }
  const collector = new Collector(new SourceText(command));
  let leaves: Directories = STARTING;
  try {
    const outcome = collector.sequence(file.Stmts as ShNode[], { background: false, pipedFrom: [], places: STARTING_PLACES });
    const places = unionPlaces(outcome.ok, outcome.fail);
    leaves = places === null ? null : [...new Set(places.map((p) => p.cwd))];
    sh.Walk(file, (node) => {
      const reason = node ? DYNAMIC_NODES[sh.NodeType(node)]?.(node) : null;
      if (reason) collector.dynamic.add(reason);
      return true;
    });
  } catch (e) {
    if (e instanceof RangeError) return { ok: false, error: 'nested too deeply to analyse' };
    throw e;
  }
  return { ok: true, commands: collector.commands, loops: collector.loops, dynamic: [...collector.dynamic], leaves };
}

function parseErrorText(e: unknown): string {
  const err = e as Partial<ShParseError>;
  // "cmd:1:6: msg" → "1:6: msg"; the file name is ours, not the user's.
  return typeof err?.Error === 'function' ? err.Error().replace(/^cmd:/, '') : String(e);
}

class Collector {
  readonly commands: SimpleCommand[] = [];
  readonly loops: LoopVariable[] = [];
  readonly dynamic = new Set<string>();
  // Once the script sets CDPATH, `cd name` may land in any directory it lists.
  private cdpath = false;
  constructor(private readonly src: SourceText) {}

  /** Statements one after another in one shell (`;`, newlines): each starts where the last one left it. */
  sequence(stmts: ShNode[], ctx: Context): Outcome {
    let outcome = stays(ctx.places);
    for (const stmt of stmts) outcome = this.stmt(stmt, { ...ctx, places: unionPlaces(outcome.ok, outcome.fail) });
    return outcome;
  }

  stmt(stmt: ShNode, outer: Context): Outcome {
    const ctx = { ...outer, background: outer.background || Boolean(stmt.Background) };
    const cmd: ShNode | null = stmt.Cmd;
    const type = cmd ? shSyntax().NodeType(cmd) : 'none';
    let outcome = stays(ctx.places);
    if (cmd && (type === 'CallExpr' || type === 'DeclClause')) outcome = this.simple(cmd, type, stmt, ctx);
    else if (cmd && type === 'BinaryCmd') outcome = this.binary(cmd, ctx);
    else if (cmd && type === 'FuncDecl') outcome = this.function(cmd, ctx);
    else if (cmd && SEQUENTIAL.has(type)) outcome = this.group(cmd, type, ctx);
    else if (cmd) outcome = this.compound(cmd, ctx);
    // Redirects of a compound command (`{ …; } > f`, `> f` alone) apply to no argv but still write; they are
    // opened where the compound starts.
    if ((stmt.Redirs as ShNode[]).length > 0 && type !== 'CallExpr' && type !== 'DeclClause') {
      const substitutions = this.substitutions(stmt.Redirs as ShNode[], outer);
      this.commands.push({ argv: [], redirects: this.redirects(stmt), assignments: [], ...this.placement(outer, substitutions) });
    }
    // A background job runs in a subshell: whatever it does to its directory, this shell stays put.
    if (stmt.Background) return stays(outer.places);
    return stmt.Negated ? { ok: outcome.fail, fail: outcome.ok } : outcome;
  }

  /** Does any command below `node` change directory (cd, pushd, popd, also through builtin/command)? */
  private changesDirectory(node: ShNode): boolean {
    let found = false;
    shSyntax().Walk(node, (n) => {
      if (found || !n) return !found;
      if (shSyntax().NodeType(n) !== 'CallExpr') return true;
      found = directoryChange((n.Args as ShNode[]).slice(0, 4).flatMap((w) => expandWord(w, this.src))) !== null;
      return !found;
    });
    return found;
  }

  /** A simple command comes after its substitutions, which the shell runs first. */
  private simple(cmd: ShNode, type: string, stmt: ShNode, ctx: Context): Outcome {
    const substitutions = this.substitutions([cmd, ...(stmt.Redirs as ShNode[])], ctx);
    const { argv, assignments } = type === 'CallExpr' ? this.call(cmd) : this.declaration(cmd);
    if (assignments.some((a) => a.text.startsWith('CDPATH=') || a.text.startsWith('CDPATH+='))) this.cdpath = true;
    this.commands.push({ argv, redirects: this.redirects(stmt), assignments, ...this.placement(ctx, substitutions) });
    // Nothing after `exit` runs in this shell (`cd dir || exit 1; …` is how scripts guard a cd); after code the
    // text does not show (eval, source) the shell may be anywhere.
    if (argv.length > 0 && !argv[0].dynamic && argv[0].text === 'exit') return stays(NOWHERE);
    if (argv.length > 0 && (argv[0].dynamic || CODE_BUILTINS.has(argv[0].text))) return stays(null);
    const change = directoryChange(argv);
    return change ? changeDirectory(ctx.places, change, this.cdpath) : stays(ctx.places);
  }

  /** `{ …; }` runs in this shell, `( … )` in a subshell that leaves this one where it was. */
  private group(cmd: ShNode, type: string, ctx: Context): Outcome {
    const outcome = this.sequence(cmd.Stmts as ShNode[], ctx);
    return type === 'Block' ? outcome : stays(ctx.places);
  }

  /** if, while, for, case, …: a cd in their bodies may or may not happen, any number of times. */
  private compound(cmd: ShNode, ctx: Context): Outcome {
    if (shSyntax().NodeType(cmd) === 'ForClause' && shSyntax().NodeType(cmd.Loop) === 'WordIter') {
      const loop = cmd.Loop;
      const items = loop.InPos?.IsValid() ? (loop.Items as ShNode[]).flatMap((w) => expandWord(w, this.src)) : null;
      this.loops.push({ name: String(loop.Name.Value), items, directories: directoriesOf(ctx.places) });
    }
    if (!this.changesDirectory(cmd)) {
      this.nested(cmd, ctx);
      return stays(ctx.places);
    }
    this.nested(cmd, { ...ctx, places: null });
    return stays(null);
  }

  /** A function body runs wherever it is called; a cd in it moves every caller. */
  private function(cmd: ShNode, ctx: Context): Outcome {
    this.stmt(cmd.Body, { ...ctx, places: null, inFunction: String(cmd.Name?.Value ?? '') });
    return stays(this.changesDirectory(cmd.Body) ? null : ctx.places);
  }

  private substitutions(nodes: ShNode[], ctx: Context): number[] {
    const before = this.commands.length;
    // Substitutions run in their own process before the command: no pipe input, no background.
    const own: Context = { background: false, pipedFrom: [], places: ctx.places, ...(ctx.inFunction === undefined ? {} : { inFunction: ctx.inFunction }) };
    for (const node of nodes) this.nested(node, own);
    return range(before, this.commands.length);
  }

  private call(call: ShNode): { argv: ShellWord[]; assignments: ShellWord[] } {
    const words = call.Args as ShNode[];
    const argv = words.flatMap((w) => expandWord(w, this.src));
    // Other computed names ($(…), $'…') already have their own reason.
    if (argv[0]?.dynamic && hasParamExp(words[0])) this.dynamic.add('$VAR in command position');
    const builtin = argv[0] && !argv[0].dynamic ? CODE_BUILTINS.get(argv[0].text) : undefined;
    if (builtin) this.dynamic.add(builtin);
    return { argv, assignments: (call.Assigns as ShNode[]).map((a) => this.assignment(a)) };
  }

  private declaration(decl: ShNode): { argv: ShellWord[]; assignments: ShellWord[] } {
    const argv: ShellWord[] = [{ text: String(decl.Variant.Value), dynamic: false }];
    const assignments: ShellWord[] = [];
    for (const arg of decl.Args as ShNode[]) {
      if (!arg.Naked) assignments.push(this.assignment(arg));
      else if (arg.Value) argv.push(...expandWord(arg.Value, this.src));
      else if (arg.Name) argv.push({ text: String(arg.Name.Value), dynamic: false });
    }
    return { argv, assignments };
  }

  /**
   * `&&` goes on where its left side succeeded, `||` where it failed. Each side of a pipe runs in its own
   * subshell, except the last one in zsh (and bash with lastpipe), so a cd in a pipeline leaves the place unknown.
   */
  private binary(bin: ShNode, ctx: Context): Outcome {
    const op = Number(bin.Op);
    const before = this.commands.length;
    const left = this.stmt(bin.X, ctx);
    if (PIPE_OPS.has(op)) {
      const piped = range(before, this.commands.length);
      const right = this.stmt(bin.Y, { ...ctx, pipedFrom: [...ctx.pipedFrom, ...piped] });
      const moved = [left.ok, left.fail, right.ok, right.fail].some((p) => p !== ctx.places);
      return stays(moved ? null : ctx.places);
    }
    if (op === AND_OP) {
      const right = this.stmt(bin.Y, { ...ctx, places: left.ok });
      return { ok: right.ok, fail: unionPlaces(left.fail, right.fail) };
    }
    const right = this.stmt(bin.Y, { ...ctx, places: left.fail });
    return { ok: unionPlaces(left.ok, right.ok), fail: right.fail };
  }

  /** Every statement below `node` (bodies of if/for/while/case, subshells, blocks, substitutions). */
  private nested(node: ShNode, ctx: Context): void {
    let root = true;
    shSyntax().Walk(node, (child) => {
      if (!child) return true;
      if (root) {
        root = false; // Walk visits `node` itself first
        return true;
      }
      const type = shSyntax().NodeType(child);
      // A substitution is one subshell running its statements in order.
      if (type === 'CmdSubst' || type === 'ProcSubst') {
        this.sequence(child.Stmts as ShNode[], ctx);
        return false;
      }
      if (type !== 'Stmt') return true;
      this.stmt(child, ctx);
      return false;
    });
  }

  private redirects(stmt: ShNode): ShellRedirect[] {
    return (stmt.Redirs as ShNode[]).map((r) => {
      const op = REDIRECT_OPS[Number(r.Op)] ?? `op#${r.Op}`;
      const redirect: ShellRedirect = { op, target: singleWord(r.Word, this.src) };
      if (r.N) redirect.fd = String(r.N.Value);
      if (r.Hdoc) redirect.heredoc = plainWord(r.Hdoc, this.src, quotedDelimiter(r.Word) ? 'raw' : 'double');
      return redirect;
    });
  }

  /** `NAME=value` as the shell assigns it; dynamic when the value is only known at run time. */
  private assignment(assign: ShNode): ShellWord {
    if (!assign.Name || assign.Index || assign.Array) return { text: this.src.of(assign), dynamic: true };
    const value = assign.Value ? plainWord(assign.Value, this.src, 'bare') : { text: '', dynamic: false };
    return { text: `${assign.Name.Value}${assign.Append ? '+=' : '='}${value.text}`, dynamic: value.dynamic };
  }

  private placement(ctx: Context, substitutions: number[]): Pick<SimpleCommand, 'background' | 'pipedFrom' | 'substitutions' | 'inFunction' | 'directories'> {
    const placed = { background: ctx.background, pipedFrom: ctx.pipedFrom, substitutions, directories: directoriesOf(ctx.places) };
    return ctx.inFunction === undefined ? placed : { ...placed, inFunction: ctx.inFunction };
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

function hasParamExp(word: ShNode): boolean {
  let found = false;
  shSyntax().Walk(word, (n) => {
    if (n && shSyntax().NodeType(n) === 'ParamExp') found = true;
    return !found;
  });
  return found;
}

/** `<<'EOF'`, `<<"EOF"` and `<<\EOF` make the body literal; a bare delimiter lets it expand. */
function quotedDelimiter(word: ShNode): boolean {
  return (word.Parts as ShNode[]).some((p) => {
    const type = shSyntax().NodeType(p);
    return type === 'SglQuoted' || type === 'DblQuoted' || (type === 'Lit' && String(p.Value).includes('\\'));
  });
}
