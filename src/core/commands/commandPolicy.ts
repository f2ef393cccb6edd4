import { posix } from 'node:path';
import { VERDICT_RANK, word, type Appended, type CommandVerdict, type PathContext, type RuleSink } from './commandRule';
import { lookupRule } from './commandRules';
import { judgeValue, variableEffect } from './environmentRules';
import { governorFileIn, NOT_FOR_AGENTS, type VariableValue } from './governorFilesRule';
import { governorStores } from './governorStores';
import { hookTrustStores, ONLY_A_PERSON, ONLY_A_PERSON_KEYS, runsHooksTrust, runsKeysChange, trustStoreAt, type TrustStore } from './hookTrustRules';
import { treeRead } from './recursiveReaders';
import { deviceKind, sweepingTarget } from './pathRisk';
import { parseShell, type LoopVariable, type ShellWord, type SimpleCommand } from './shellSyntax';
import { compose, enterEach, resolveIn, STARTING, type Directories } from './workingDirectory';

export type { CommandVerdict } from './commandRule';

/** A file the command runs or loads, which the pre-hook checks against the last git commit. */
export interface ExecutedFile {
  path: string; // relative to the command's working directory (or absolute); may hold `*` and `**` globs
  upward: boolean; // the same name in every folder above it, up to the workspace root, counts too
}

export interface CommandAnalysis {
  verdict: CommandVerdict;
  reasons: string[]; // one sentence per finding, naming the command it is about
  commands: string[][]; // argv of every simple command after unwrapping (env, timeout, sh -c, …)
  /**
   * Literal paths the command would create, modify or delete, as the shell would see them: relative to
   * the working directory (after any `cd` in the command line), possibly with glob characters (`src/*`);
   * `~` is expanded only when homeDir is given.
   */
  writeTargets: string[];
  dynamicWriteTargets: boolean; // some write target is not a literal (a $VAR, xargs input, …)
  /** What project runners execute (package.json, a Makefile, conftest.py, a script): safe only while committed. */
  executes: ExecutedFile[];
  /** Folders (relative to the working directory) git starts from to find its repository and its configuration. */
  gitDirectories: string[];
}

export type CommandPolicyOptions = PathContext;

// `sh -c "sh -c '…'"` deeper than this is obfuscation, not a command anyone needs.
const MAX_SHELL_DEPTH = 4;
const MAX_WRAPPERS = 16;
const WRITE_OPS = new Set(['>', '>>', '&>', '&>>', '>|', '<>']);
const READ_OPS = new Set(['<', '<&', '<<', '<<-', '<<<']);
const UNKNOWN_DIRECTORY = 'runs in a folder only known at run time (after a cd the text cannot follow)';

/**
 * Classifies a command line for `run_command`: safe, destructive (a human approves), ask (cannot be
 * known from the text) or denied. Every simple command counts; the most severe verdict wins.
 */
export function analyzeCommand(command: string, options: CommandPolicyOptions = {}): CommandAnalysis {
  const analysis = new Analysis(options);
  analysis.script(command, 0, '', STARTING);
  return analysis.result();
}

class Analysis {
  private verdict: CommandVerdict = 'safe';
  private readonly reasons = new Set<string>();
  private readonly commands: string[][] = [];
  private readonly writeTargets = new Set<string>();
  private dynamicWrites = false;
  private readonly executes = new Map<string, ExecutedFile>();
  private readonly gitDirectories = new Set<string>();
  // Literal values this command line gave shell variables, for a later `export NAME`.
  private readonly variables = new Map<string, ShellWord>();
  // Variables this command line set to a value only known at run time (read X, X=$(…)).
  private readonly unknownVariables = new Set<string>();
  private readonly loopValues = new Map<string, string[]>();
  private readonly trustStores: readonly TrustStore[];
  private readonly governorStores: readonly TrustStore[];

  constructor(private readonly paths: PathContext) {
    this.trustStores = paths.trustStores ?? hookTrustStores();
    this.governorStores = governorStores({ trustStores: this.trustStores, home: paths.governorHome });
  }

  result(): CommandAnalysis {
    return {
      verdict: this.verdict,
      reasons: [...this.reasons],
      commands: this.commands,
      writeTargets: [...this.writeTargets],
      dynamicWriteTargets: this.dynamicWrites,
      executes: [...this.executes.values()],
      gitDirectories: [...this.gitDirectories],
    };
  }

  /** Shell code run from `base`: a `cd` inside it moves its own later commands, not the caller's. */
  script(source: string, depth: number, via: string, base: Directories): void {
    const prefix = via === '' ? '' : `${via}: `;
    if (depth > MAX_SHELL_DEPTH) return this.flag('ask', `${prefix}shells nested more than ${MAX_SHELL_DEPTH} deep`);
    const parsed = parseShell(source);
    if (!parsed.ok) return this.flag('ask', `${prefix}cannot be parsed (${parsed.error}), so what it runs is unknown`);
    for (const reason of parsed.dynamic) this.flag('ask', `${prefix}uses ${reason}, so what it runs is only known at run time`);
    parsed.loops.forEach((loop) => this.loop(loop, via === '' ? 'for' : `${via}: for`, compose(base, loop.directories)));
    // What each command ran after unwrapping; pipe readers and substitutions come after what feeds them.
    const ran: string[][] = [];
    parsed.commands.forEach((cmd, index) => {
      ran[index] = [];
      const programs = (indices: number[]) => indices.flatMap((i) => ran[i] ?? []);
      const scope: Scope = { cmd, depth, upstream: programs(cmd.pipedFrom), substituted: programs(cmd.substitutions), ran: ran[index] };
      this.simple(scope, compose(base, cmd.directories));
    });
  }

  private simple(scope: Scope, dirs: Directories): void {
    const { cmd } = scope;
    const shown = cmd.argv.length > 0 ? display(cmd.argv) : 'redirect';
    // A prefix assignment reaches only this command; a bare one stays for the rest of the command line.
    cmd.assignments.forEach((a) => this.assignment(a, shown, dirs, cmd.argv.length === 0 || isDeclaration(cmd.argv[0])));
    const [name] = cmd.argv;
    if (cmd.inFunction !== undefined && name && !name.dynamic && name.text === cmd.inFunction && (cmd.background || cmd.pipedFrom.length > 0)) {
      this.flag('denied', `${shown}: calls its own function in a pipe or in the background, multiplying processes (a fork bomb)`);
    }
    this.redirects(cmd, shown, dirs);
    if (cmd.argv.length > 0) this.invoke(cmd.argv, null, scope, 0, dirs);
  }

  private invoke(argv: ShellWord[], appended: Appended | null, scope: Scope, wrappers: number, dirs: Directories): void {
    const [name] = argv;
    if (!name) return;
    const shown = display(argv);
    const slot = this.commands.push(argv.map((w) => w.text)) - 1;
    if (runsHooksTrust(argv)) this.flag('denied', `${shown}: ${ONLY_A_PERSON}`);
    if (runsKeysChange(argv)) this.flag('denied', `${shown}: ${ONLY_A_PERSON_KEYS}`);
    this.governorFilesOf(argv, appended, shown, dirs);
    if (wrappers > MAX_WRAPPERS) return this.flag('ask', `${shown}: wraps commands more than ${MAX_WRAPPERS} deep`);
    if (name.dynamic) return this.flag('ask', `${shown}: runs a program whose name is only known at run time`);
    const found = lookupRule(name.text);
    if (!found.ok) return this.flag('ask', `${shown}: ${found.why}`);
    scope.ran.push(found.name);
    const replaced = { value: false };
    const sink = this.sink(shown, scope, wrappers, dirs, replaced);
    found.rule({ name: found.name, args: argv.slice(1), appended, command: scope.cmd, paths: this.paths }, sink);
    // A wrapper is shown as the command it runs (`timeout 5 rm x` → `rm x`).
    if (replaced.value) this.commands.splice(slot, 1);
  }

  /** Where one program's findings go; relative paths it reports are placed in `dirs`. */
  private sink(shown: string, scope: Scope, wrappers: number, dirs: Directories, replaced: { value: boolean }): RuleSink {
    return {
      flag: (verdict, why) => this.flag(verdict, `${shown}: ${why}`),
      write: (target) => this.write(target, shown, dirs),
      writeUnknown: () => {
        this.dynamicWrites = true;
      },
      unwrap: (inner, app) => {
        replaced.value = true;
        this.invoke(inner, app ?? null, scope, wrappers + 1, dirs);
      },
      run: (inner, app) => this.invoke(inner, app ?? null, scope, wrappers + 1, dirs),
      script: (code, via) => {
        replaced.value = true;
        if (code.dynamic) this.flag('ask', `${shown}: runs shell code only known at run time`);
        else this.script(code.text, scope.depth + 1, via, dirs);
      },
      assign: (assignment) => this.assignment(assignment, shown, dirs, false),
      setsVariable: (name) => this.variable(name, null, shown, dirs, true),
      exportsVariable: (name) => this.variable(name, this.variables.get(name) ?? null, shown, dirs, false),
      executes: (path, upward = false) => this.executed(path, upward, shown, dirs),
      findsRepository: () => {
        if (dirs === null) return this.flag('ask', `${shown}: ${UNKNOWN_DIRECTORY}, so which repository git uses is unknown`);
        dirs.forEach((d) => this.gitDirectories.add(d === '' ? '.' : d));
      },
      within: (dir) => {
        if (dir.dynamic) this.flag('ask', `${shown}: works in a folder only known at run time (${dir.text})`);
        return this.sink(shown, scope, wrappers, dir.dynamic ? null : enterEach(dirs, dir.text), replaced);
      },
      upstream: () => scope.upstream,
      substituted: () => scope.substituted,
    };
  }

  /**
   * Every word a program gets may be a path it opens (or hands on: echo … | xargs cat), so each is judged by
   * where it lands; a program that reads whole trees is judged by what lies below each of its words too.
   */
  private governorFilesOf(argv: ShellWord[], appended: Appended | null, shown: string, dirs: Directories): void {
    const [name, ...args] = argv;
    const program = name.dynamic ? '' : posix.basename(name.text);
    const tree = treeRead(program, args);
    const opens = !NEVER_OPENS.has(program);
    // The program itself is a path only when written as one (a bare name is looked up in PATH).
    argv.forEach((w, i) => (i > 0 || w.text.includes('/')) && this.governorFile(w, shown, dirs, { recursive: tree.recursive && i > 0 }, opens));
    if (tree.fromHere) this.governorFile(word('.'), shown, dirs, { recursive: true }, true);
    if (tree.recursive && appended && appended.within === null) {
      this.flag('ask', `${shown}: reads whole folders only known at run time, so whether they hold the governor's own files cannot be checked`);
    }
  }

  /** One word judged by the one rule: reaching the governor's own files is denied, not knowing asks. */
  private governorFile(w: ShellWord, shown: string, dirs: Directories, reach: { recursive: boolean }, opens: boolean): void {
    const context = { stores: this.governorStores, start: this.paths.cwd ?? this.paths.workspaceRoot ?? process.cwd(), dirs, homeDir: this.paths.homeDir, variable: (name: string) => this.valueOf(name) };
    const finding = governorFileIn(w, context, reach);
    if (finding?.kind === 'reaches') this.flag('denied', `${shown}: reaches ${finding.path}, ${finding.holds ? 'a folder holding' : 'in'} ${finding.store.what}: ${NOT_FOR_AGENTS}`);
    else if (finding?.kind === 'unknown' && opens) this.flag('ask', `${shown}: ${finding.why}, so whether it reaches the governor's own files cannot be checked`);
  }

  private valueOf(name: string): VariableValue {
    const looped = this.loopValues.get(name);
    if (looped) return { kind: 'known', values: looped };
    const known = this.variables.get(name);
    if (known) return { kind: 'known', values: [known.text] };
    return this.unknownVariables.has(name) ? { kind: 'unknown' } : { kind: 'inherited' };
  }

  /** A for loop's items are words like any other, and its variable holds each of them in turn. */
  private loop(loop: LoopVariable, shown: string, dirs: Directories): void {
    loop.items?.forEach((item) => this.governorFile(item, shown, dirs, { recursive: false }, false));
    if (loop.items && loop.items.every((item) => !item.dynamic)) this.loopValues.set(loop.name, loop.items.map((item) => item.text));
    else this.unknownVariables.add(loop.name);
  }

  private redirects(cmd: SimpleCommand, shown: string, dirs: Directories): void {
    for (const r of cmd.redirects) {
      const target = r.target;
      const dup = r.op === '>&' && !target.dynamic && /^(\d+|-)$/.test(target.text); // 2>&1, >&-
      const heredoc = r.op === '<<' || r.op === '<<-';
      if (!dup && !heredoc) this.governorFile(target, shown, dirs, { recursive: false }, r.op !== '<<<');
      // A heredoc's lines can be paths another program opens (xargs cat <<EOF).
      if (r.heredoc) heredocWords(r.heredoc).forEach((w) => this.governorFile(w, shown, dirs, { recursive: false }, false));
      if (WRITE_OPS.has(r.op) || (r.op === '>&' && !dup)) {
        if (!target.dynamic && deviceKind(target.text) === 'discard') continue;
        this.flag('destructive', `${shown}: writes to ${target.text} (${r.op})`);
        this.write(target, shown, dirs);
      } else if (READ_OPS.has(r.op) && !target.dynamic && deviceKind(target.text) === 'network') {
        this.flag('ask', `${shown}: reads from a network connection (${target.text})`);
      } else if (!READ_OPS.has(r.op) && !dup) {
        this.flag('ask', `${shown}: has a redirect we do not recognise (${r.op})`);
      }
    }
  }

  private write(target: ShellWord, shown: string, dirs: Directories): void {
    this.trustStore(target.text, shown);
    if (target.dynamic) {
      this.dynamicWrites = true;
      return this.flag('ask', `${shown}: writes to ${target.text}, a path only known at run time`);
    }
    const landed = resolveIn(dirs, target.text);
    if (landed === null) {
      this.dynamicWrites = true;
      return this.flag('ask', `${shown}: ${UNKNOWN_DIRECTORY}, so where ${target.text} lands cannot be checked against the scope`);
    }
    for (const place of landed) {
      const path = this.home(place);
      if (place !== target.text) this.trustStore(place, shown);
      const device = deviceKind(path);
      if (device === 'discard') continue;
      if (device === 'block') this.flag('denied', `${shown}: writes to the block device ${path}`);
      if (device === 'network') {
        this.flag('ask', `${shown}: sends data over a network connection (${path})`);
        continue;
      }
      if (device === 'other') this.flag('ask', `${shown}: writes to the device ${path}`);
      this.writeTargets.add(path);
    }
  }

  /** A write into where hook trust is kept is never an agent's; relative paths start at the workspace root. */
  private trustStore(path: string, shown: string): void {
    const store = trustStoreAt(path, this.trustStores, { homeDir: this.paths.homeDir, base: this.paths.cwd ?? this.paths.workspaceRoot });
    if (!store) return;
    // `rm -rf /` or `~` sweeps the store away with everything else: refused for that, not for hook trust.
    const sweeping = sweepingTarget(path, this.paths);
    if (sweeping) {
      if (this.verdict !== 'denied') this.flag('denied', `${shown}: writes ${path}, ${sweeping}`);
      return;
    }
    this.flag('denied', `${shown}: writes ${path}, in ${store.what}: ${ONLY_A_PERSON}`);
  }

  private executed(path: ShellWord, upward: boolean, shown: string, dirs: Directories): void {
    if (path.dynamic) return this.flag('ask', `${shown}: runs ${path.text}, a file only known at run time`);
    const landed = resolveIn(dirs, path.text);
    if (landed === null) return this.flag('ask', `${shown}: ${UNKNOWN_DIRECTORY}, so what it runs cannot be checked`);
    for (const place of landed) {
      const resolved = this.home(place);
      this.executes.set(`${upward}:${resolved}`, { path: resolved, upward });
    }
  }

  /** `~` is the shell's home; expanded when we know it, else kept so the scope check can refuse it. */
  private home(path: string): string {
    const home = this.paths.homeDir;
    return home && (path === '~' || path.startsWith('~/')) ? posix.join(home, path.slice(1)) : path;
  }

  /** NAME=value, from the shell or from `env`; `persists`: later commands in this shell see it too. */
  private assignment(assignment: ShellWord, shown: string, dirs: Directories, persists: boolean): void {
    const match = /^([^=+[]*)(\+?=|\[)/.exec(assignment.text);
    const name = match ? match[1] : assignment.text;
    if (!match || match[2] !== '=') return this.variable(name, null, shown, dirs, persists);
    const value = { text: assignment.text.slice(match[0].length), dynamic: assignment.dynamic };
    this.governorFile(value, shown, dirs, { recursive: false }, false);
    this.variable(name, value, shown, dirs, persists);
  }

  /** A variable gets a value (null: one not visible here); what programs do with it is judged now. */
  private variable(name: string, value: ShellWord | null, shown: string, dirs: Directories, persists: boolean): void {
    if (persists) {
      if (value && !value.dynamic) {
        this.variables.set(name, value);
        this.unknownVariables.delete(name);
      } else {
        this.variables.delete(name);
        this.unknownVariables.add(name);
      }
    }
    const effect = variableEffect(name);
    if (!effect) return;
    const judged = judgeValue(name, effect, value);
    if (judged.kind === 'ask') return this.flag('ask', `${shown}: ${judged.why}`);
    if (judged.kind === 'harmless') return;
    this.flag('destructive', `${shown}: sets ${name}=${judged.target.text}, and ${effect.what}`);
    this.write(judged.target, shown, dirs);
  }

  private flag(verdict: CommandVerdict, reason: string): void {
    if (VERDICT_RANK[verdict] > VERDICT_RANK[this.verdict]) this.verdict = verdict;
    this.reasons.add(reason);
  }
}

// Programs that never open the words they are given: a word only known at run time there asks nothing.
const NEVER_OPENS = new Set(['echo', 'printf', 'test', '[', 'true', 'false', ':', 'seq', 'sleep', 'yes', 'expr', 'kill', 'wait', 'exit', 'return', 'shift', 'set', 'unset', 'export', 'declare', 'typeset', 'local', 'readonly', 'read', 'getopts', 'let']);

/** The words of a heredoc that look like paths (they hold a '/' or start with '~'). */
function heredocWords(body: ShellWord): ShellWord[] {
  return body.text.split(/\s+/).filter((t) => t.includes('/') || t.startsWith('~')).map((text) => ({ text, dynamic: body.dynamic }));
}

// export/declare/local/readonly/typeset: their assignments stay in the shell like bare ones.
function isDeclaration(word: ShellWord): boolean {
  return !word.dynamic && ['export', 'declare', 'typeset', 'local', 'readonly'].includes(word.text);
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
