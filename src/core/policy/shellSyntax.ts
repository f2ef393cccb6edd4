import type { ShNode, ShParseError } from 'mvdan-sh';
import { shSyntax } from './mvdanSh';
import { expandWord, plainWord, singleWord, SourceText, type ShellWord } from './shellWords';

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
  assignments: string[]; // NAME=value prefixes, and the assignments of export/declare/local/readonly
  background: boolean;
  pipedFrom: number[]; // indices of the commands whose output reaches this one's stdin through a pipe
  substitutions: number[]; // indices of the commands whose output lands in its words: $(…), `…`, <(…)
  inFunction?: string; // the function whose body holds this command
}

export type ShellParse =
  | { ok: true; commands: SimpleCommand[]; dynamic: string[] }
  | { ok: false; error: string };

// Beyond this an agent is not sending a command line but a payload; nobody can review it anyway.
const MAX_COMMAND_LENGTH = 65_536;

// mvdan-sh's token numbers (syntax.RedirOperator / BinCmdOperator in the Go source).
const REDIRECT_OPS: Record<number, string> = {
  54: '>', 55: '>>', 56: '<', 57: '<>', 58: '<&', 59: '>&', 60: '>|', 61: '<<', 62: '<<-', 63: '<<<', 64: '&>', 65: '&>>',
};
const PIPE_OPS = new Set([12, 13]); // | and |&

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
}

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
  try {
    for (const stmt of file.Stmts as ShNode[]) collector.stmt(stmt, { background: false, pipedFrom: [] });
    sh.Walk(file, (node) => {
      const reason = node ? DYNAMIC_NODES[sh.NodeType(node)]?.(node) : null;
      if (reason) collector.dynamic.add(reason);
      return true;
    });
  } catch (e) {
    if (e instanceof RangeError) return { ok: false, error: 'nested too deeply to analyse' };
    throw e;
  }
  return { ok: true, commands: collector.commands, dynamic: [...collector.dynamic] };
}

function parseErrorText(e: unknown): string {
  const err = e as Partial<ShParseError>;
  // "cmd:1:6: msg" → "1:6: msg"; the file name is ours, not the user's.
  return typeof err?.Error === 'function' ? err.Error().replace(/^cmd:/, '') : String(e);
}

class Collector {
  readonly commands: SimpleCommand[] = [];
  readonly dynamic = new Set<string>();
  constructor(private readonly src: SourceText) {}

  stmt(stmt: ShNode, outer: Context): void {
    const ctx = { ...outer, background: outer.background || Boolean(stmt.Background) };
    const cmd: ShNode | null = stmt.Cmd;
    const type = cmd ? shSyntax().NodeType(cmd) : 'none';
    if (cmd && (type === 'CallExpr' || type === 'DeclClause')) return this.simple(cmd, type, stmt, ctx);
    if (cmd && type === 'BinaryCmd') this.binary(cmd, ctx);
    else if (cmd && type === 'FuncDecl') this.stmt(cmd.Body, { ...ctx, inFunction: String(cmd.Name?.Value ?? '') });
    else if (cmd) this.nested(cmd, ctx);
    // Redirects of a compound command (`{ …; } > f`, `> f` alone) apply to no argv but still write.
    if ((stmt.Redirs as ShNode[]).length === 0) return;
    const substitutions = this.substitutions(stmt.Redirs as ShNode[], ctx);
    this.commands.push({ argv: [], redirects: this.redirects(stmt), assignments: [], ...this.placement(ctx, substitutions) });
  }

  /** A simple command comes after its substitutions, which the shell runs first. */
  private simple(cmd: ShNode, type: string, stmt: ShNode, ctx: Context): void {
    const substitutions = this.substitutions([cmd, ...(stmt.Redirs as ShNode[])], ctx);
    const { argv, assignments } = type === 'CallExpr' ? this.call(cmd) : this.declaration(cmd);
    this.commands.push({ argv, redirects: this.redirects(stmt), assignments, ...this.placement(ctx, substitutions) });
  }

  private substitutions(nodes: ShNode[], ctx: Context): number[] {
    const before = this.commands.length;
    // Substitutions run in their own process before the command: no pipe input, no background.
    const own: Context = ctx.inFunction === undefined ? { background: false, pipedFrom: [] } : { background: false, pipedFrom: [], inFunction: ctx.inFunction };
    for (const node of nodes) this.nested(node, own);
    return range(before, this.commands.length);
  }

  private call(call: ShNode): { argv: ShellWord[]; assignments: string[] } {
    const words = call.Args as ShNode[];
    const argv = words.flatMap((w) => expandWord(w, this.src));
    // Other computed names ($(…), $'…') already have their own reason.
    if (argv[0]?.dynamic && hasParamExp(words[0])) this.dynamic.add('$VAR in command position');
    const builtin = argv[0] && !argv[0].dynamic ? CODE_BUILTINS.get(argv[0].text) : undefined;
    if (builtin) this.dynamic.add(builtin);
    return { argv, assignments: (call.Assigns as ShNode[]).map((a) => this.assignment(a)) };
  }

  private declaration(decl: ShNode): { argv: ShellWord[]; assignments: string[] } {
    const argv: ShellWord[] = [{ text: String(decl.Variant.Value), dynamic: false }];
    const assignments: string[] = [];
    for (const arg of decl.Args as ShNode[]) {
      if (!arg.Naked) assignments.push(this.assignment(arg));
      else if (arg.Value) argv.push(...expandWord(arg.Value, this.src));
      else if (arg.Name) argv.push({ text: String(arg.Name.Value), dynamic: false });
    }
    return { argv, assignments };
  }

  private binary(bin: ShNode, ctx: Context): void {
    const before = this.commands.length;
    this.stmt(bin.X, ctx);
    const left = PIPE_OPS.has(Number(bin.Op)) ? range(before, this.commands.length) : [];
    this.stmt(bin.Y, left.length > 0 ? { ...ctx, pipedFrom: [...ctx.pipedFrom, ...left] } : ctx);
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
      if (shSyntax().NodeType(child) !== 'Stmt') return true;
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

  private assignment(assign: ShNode): string {
    if (!assign.Name || assign.Index || assign.Array) return this.src.of(assign);
    const value = assign.Value ? plainWord(assign.Value, this.src, 'bare').text : '';
    return `${assign.Name.Value}${assign.Append ? '+=' : '='}${value}`;
  }

  private placement(ctx: Context, substitutions: number[]): Pick<SimpleCommand, 'background' | 'pipedFrom' | 'substitutions' | 'inFunction'> {
    const placed = { background: ctx.background, pipedFrom: ctx.pipedFrom, substitutions };
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
