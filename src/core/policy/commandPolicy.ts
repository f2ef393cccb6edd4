import { posix } from 'node:path';
import { VERDICT_RANK, type Appended, type CommandVerdict, type PathContext, type RuleSink } from './commandRule';
import { lookupRule } from './commandRules';
import { deviceKind } from './pathRisk';
import { parseShell, type ShellWord, type SimpleCommand } from './shellSyntax';

export type { CommandVerdict } from './commandRule';

export interface CommandAnalysis {
  verdict: CommandVerdict;
  reasons: string[]; // one sentence per finding, naming the command it is about
  commands: string[][]; // argv of every simple command after unwrapping (env, timeout, sh -c, …)
  /**
   * Literal paths the command would create, modify or delete, as the shell would see them: relative to
   * the working directory, possibly with glob characters (`src/*`); `~` is expanded only when homeDir is given.
   */
  writeTargets: string[];
  dynamicWriteTargets: boolean; // some write target is not a literal (a $VAR, xargs input, …)
}

export type CommandPolicyOptions = PathContext;

// `sh -c "sh -c '…'"` deeper than this is obfuscation, not a command anyone needs.
const MAX_SHELL_DEPTH = 4;
const MAX_WRAPPERS = 16;
const WRITE_OPS = new Set(['>', '>>', '&>', '&>>', '>|', '<>']);
const READ_OPS = new Set(['<', '<&', '<<', '<<-', '<<<']);
const CHANGES_DIRECTORY = new Set(['cd', 'pushd', 'popd']);

/** Variables whose value changes what later programs run or load; setting one asks. */
const SENSITIVE_VARIABLES: [RegExp, string][] = [
  [/^(PATH|HOME)$/, 'which programs run and what ~ means'],
  [/^(LD_|DYLD_)/, 'which libraries every program loads'],
  [/^(BASH_ENV|ENV|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|IFS|PS4|BASH_FUNC_.*)$/, 'what the shell runs or how it splits words'],
  [/^(NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|JAVA_TOOL_OPTIONS)$/, 'what code interpreters load'],
  [/^GIT_(SSH|SSH_COMMAND|EXTERNAL_DIFF|PAGER|EDITOR|SEQUENCE_EDITOR|EXEC_PATH|CONFIG\w*|DIR|WORK_TREE|ASKPASS|TEMPLATE_DIR)$/, 'what git runs or which repository it uses'],
  [/^(PAGER|EDITOR|VISUAL|SHELL)$/, 'which programs tools launch'],
  [/^npm_config_/i, 'how npm runs scripts'],
];

/**
 * Classifies a command line for `run_command`: safe, destructive (a human approves), ask (cannot be
 * known from the text) or denied. Every simple command counts; the most severe verdict wins.
 */
export function analyzeCommand(command: string, options: CommandPolicyOptions = {}): CommandAnalysis {
  const analysis = new Analysis(options);
  analysis.script(command, 0, '');
  return analysis.result();
}

class Analysis {
  private verdict: CommandVerdict = 'safe';
  private readonly reasons = new Set<string>();
  private readonly commands: string[][] = [];
  private readonly writeTargets = new Set<string>();
  private dynamicWrites = false;
  private changesDirectory = false;
  private relativeWrites = false;

  constructor(private readonly paths: PathContext) {}

  result(): CommandAnalysis {
    if (this.changesDirectory && this.relativeWrites) {
      this.flag('ask', 'changes directory before writing, so relative write targets cannot be checked against the scope');
    }
    return {
      verdict: this.verdict,
      reasons: [...this.reasons],
      commands: this.commands,
      writeTargets: [...this.writeTargets],
      dynamicWriteTargets: this.dynamicWrites,
    };
  }

  script(source: string, depth: number, via: string): void {
    const prefix = via === '' ? '' : `${via}: `;
    if (depth > MAX_SHELL_DEPTH) return this.flag('ask', `${prefix}shells nested more than ${MAX_SHELL_DEPTH} deep`);
    const parsed = parseShell(source);
    if (!parsed.ok) return this.flag('ask', `${prefix}cannot be parsed (${parsed.error}), so what it runs is unknown`);
    for (const reason of parsed.dynamic) this.flag('ask', `${prefix}uses ${reason}, so what it runs is only known at run time`);
    // What each command ran after unwrapping; pipe readers and substitutions come after what feeds them.
    const ran: string[][] = [];
    parsed.commands.forEach((cmd, index) => {
      ran[index] = [];
      const programs = (indices: number[]) => indices.flatMap((i) => ran[i] ?? []);
      const scope: Scope = { cmd, depth, upstream: programs(cmd.pipedFrom), substituted: programs(cmd.substitutions), ran: ran[index] };
      this.simple(scope);
    });
  }

  private simple(scope: Scope): void {
    const { cmd } = scope;
    const shown = cmd.argv.length > 0 ? display(cmd.argv) : 'redirect';
    cmd.assignments.forEach((a) => this.assignment(a, shown));
    const [name] = cmd.argv;
    if (cmd.inFunction !== undefined && name && !name.dynamic && name.text === cmd.inFunction && (cmd.background || cmd.pipedFrom.length > 0)) {
      this.flag('denied', `${shown}: calls its own function in a pipe or in the background, multiplying processes (a fork bomb)`);
    }
    this.redirects(cmd, shown);
    if (cmd.argv.length > 0) this.invoke(cmd.argv, null, scope, 0);
  }

  private invoke(argv: ShellWord[], appended: Appended | null, scope: Scope, wrappers: number): void {
    const [name] = argv;
    if (!name) return;
    const shown = display(argv);
    const slot = this.commands.push(argv.map((w) => w.text)) - 1;
    if (wrappers > MAX_WRAPPERS) return this.flag('ask', `${shown}: wraps commands more than ${MAX_WRAPPERS} deep`);
    if (name.dynamic) return this.flag('ask', `${shown}: runs a program whose name is only known at run time`);
    const found = lookupRule(name.text);
    if (!found.ok) return this.flag('ask', `${shown}: ${found.why}`);
    scope.ran.push(found.name);
    if (CHANGES_DIRECTORY.has(found.name)) this.changesDirectory = true;
    let replaced = false;
    const sink: RuleSink = {
      flag: (verdict, why) => this.flag(verdict, `${shown}: ${why}`),
      write: (target) => this.write(target, shown),
      writeUnknown: () => {
        this.dynamicWrites = true;
      },
      unwrap: (inner, app) => {
        replaced = true;
        this.invoke(inner, app ?? null, scope, wrappers + 1);
      },
      run: (inner, app) => this.invoke(inner, app ?? null, scope, wrappers + 1),
      script: (code, via) => {
        replaced = true;
        if (code.dynamic) this.flag('ask', `${shown}: runs shell code only known at run time`);
        else this.script(code.text, scope.depth + 1, via);
      },
      assign: (assignment) => this.assignment(assignment, shown),
      upstream: () => scope.upstream,
      substituted: () => scope.substituted,
    };
    found.rule({ name: found.name, args: argv.slice(1), appended, command: scope.cmd, paths: this.paths }, sink);
    // A wrapper is shown as the command it runs (`timeout 5 rm x` → `rm x`).
    if (replaced) this.commands.splice(slot, 1);
  }

  private redirects(cmd: SimpleCommand, shown: string): void {
    for (const r of cmd.redirects) {
      const target = r.target;
      const dup = r.op === '>&' && !target.dynamic && /^(\d+|-)$/.test(target.text); // 2>&1, >&-
      if (WRITE_OPS.has(r.op) || (r.op === '>&' && !dup)) {
        if (!target.dynamic && deviceKind(target.text) === 'discard') continue;
        this.flag('destructive', `${shown}: writes to ${target.text} (${r.op})`);
        this.write(target, shown);
      } else if (READ_OPS.has(r.op) && !target.dynamic && deviceKind(target.text) === 'network') {
        this.flag('ask', `${shown}: reads from a network connection (${target.text})`);
      } else if (!READ_OPS.has(r.op) && !dup) {
        this.flag('ask', `${shown}: has a redirect we do not recognise (${r.op})`);
      }
    }
  }

  private write(target: ShellWord, shown: string): void {
    if (target.dynamic) {
      this.dynamicWrites = true;
      return this.flag('ask', `${shown}: writes to ${target.text}, a path only known at run time`);
    }
    // `~` is the shell's home; expanded when we know it, else kept so the scope check can refuse it.
    const home = this.paths.homeDir;
    const path = home && (target.text === '~' || target.text.startsWith('~/')) ? posix.join(home, target.text.slice(1)) : target.text;
    const device = deviceKind(path);
    if (device === 'discard') return;
    if (device === 'block') this.flag('denied', `${shown}: writes to the block device ${path}`);
    if (device === 'network') return this.flag('ask', `${shown}: sends data over a network connection (${path})`);
    if (device === 'other') this.flag('ask', `${shown}: writes to the device ${path}`);
    if (!path.startsWith('/')) this.relativeWrites = true;
    this.writeTargets.add(path);
  }

  private assignment(assignment: string, shown: string): void {
    const name = assignment.split(/\+?=|\[/)[0];
    const sensitive = SENSITIVE_VARIABLES.find(([pattern]) => pattern.test(name));
    if (sensitive) this.flag('ask', `${shown}: sets ${name}, which changes ${sensitive[1]}`);
  }

  private flag(verdict: CommandVerdict, reason: string): void {
    if (VERDICT_RANK[verdict] > VERDICT_RANK[this.verdict]) this.verdict = verdict;
    this.reasons.add(reason);
  }
}

/** One simple command being classified, with what its pipe inputs ran. */
interface Scope {
  cmd: SimpleCommand;
  depth: number;
  upstream: string[];
  substituted: string[];
  ran: string[];
}

const MAX_SHOWN = 80;

function display(argv: ShellWord[]): string {
  const text = argv.map((w) => (w.text === '' || /\s/.test(w.text) ? JSON.stringify(w.text) : w.text)).join(' ');
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}
