import type { ShellWord } from './shellWords';

/**
 * Environment variables that change what a program writes or runs. Setting one counts wherever it happens: a
 * prefix (`X=1 git …`), `env X=1 …`, a plain assignment or `export`/`declare`; a shell passes it to every later
 * program, so it is judged when it is set, whichever program reads it.
 */
export type VariableEffect =
  | { kind: 'writes'; what: string } // the value is a file or folder the program writes
  | { kind: 'trace'; what: string } // git's trace destinations: a path (written), a descriptor, a socket
  | { kind: 'runs'; what: string; harmless?: RegExp }; // the value decides which code runs or which configuration is read

/** What a program does with a value: nothing to check, a write target, or a question for a human. */
export type ValueJudgement = { kind: 'harmless' } | { kind: 'writes'; target: ShellWord } | { kind: 'ask'; why: string };

// Order matters: the first match wins.
const VARIABLES: [RegExp, VariableEffect | null][] = [
  // git trace settings that are flags, numbers or lists, not destinations
  [/^GIT_TRACE2?_(BRIEF|PERF_BRIEF|EVENT_NESTING|CONFIG_PARAMS|ENV_VARS|DST_DEBUG|REDACT|CURL_NO_DATA|MAX_FILES)$/, null],
  [/^GIT_TRACE(2)?(_\w+)?$/, { kind: 'trace', what: 'git writes its trace to the path it names' }],
  [/^(SSLKEYLOGFILE|NODE_V8_COVERAGE|NODE_REDIRECT_WARNINGS|NODE_REPL_HISTORY|PYTHONPYCACHEPREFIX|HISTFILE|LESSHISTFILE|CARGO_TARGET_DIR)$/, { kind: 'writes', what: 'programs write to the path it names' }],
  [/^(PATH|HOME|XDG_CONFIG_HOME|XDG_DATA_HOME|ZDOTDIR|CDPATH)$/, { kind: 'runs', what: 'which programs run, what ~ means, or where their configuration is read' }],
  [/^(LD_|DYLD_)/, { kind: 'runs', what: 'which libraries every program loads' }],
  [/^(BASH_ENV|ENV|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|IFS|PS4|BASH_FUNC_.*)$/, { kind: 'runs', what: 'what the shell runs or how it splits words' }],
  [
    /^(NODE_OPTIONS|NODE_PATH|NODE_REPL_EXTERNAL_MODULE|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE|PYTHONBREAKPOINT|PYTHONEXECUTABLE|PYTEST_ADDOPTS|PYTEST_PLUGINS|PERL5OPT|PERL5LIB|PERLLIB|PERL5DB|RUBYOPT|RUBYLIB|GEM_HOME|GEM_PATH|BUNDLE_GEMFILE|LUA_INIT|LUA_PATH|LUA_CPATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|MAVEN_OPTS|GRADLE_OPTS|IPYTHONDIR|JUPYTER_CONFIG_DIR)$/,
    { kind: 'runs', what: 'what code interpreters load' },
  ],
  [/^(MAKEFILES|MAKEFLAGS|MFLAGS|GNUMAKEFLAGS|CC|CXX|CPP|LD|AR|GOFLAGS|GOTOOLCHAIN|CARGO_HOME|RUSTC|RUSTC_WRAPPER|RUSTC_WORKSPACE_WRAPPER|RUSTDOC)$/, { kind: 'runs', what: 'what build tools read or run' }],
  // Agents turn pagers off with PAGER=cat; any other value is a program to run.
  [/^(GIT_PAGER|PAGER|MANPAGER|SYSTEMD_PAGER)$/, { kind: 'runs', what: 'which program shows output', harmless: /^(|cat)$/ }],
  [
    /^GIT_(SSH|SSH_COMMAND|SSH_VARIANT|EXTERNAL_DIFF|EDITOR|SEQUENCE_EDITOR|EXEC_PATH|CONFIG\w*|DIR|WORK_TREE|COMMON_DIR|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|ASKPASS|TEMPLATE_DIR|PROXY_COMMAND|ATTR_SOURCE|NAMESPACE)$/,
    { kind: 'runs', what: 'what git runs or which repository and configuration it uses' },
  ],
  [/^(EDITOR|VISUAL|SHELL|BROWSER|LESS|LESSOPEN|LESSCLOSE|LESSKEY|SSH_ASKPASS|SUDO_ASKPASS)$/, { kind: 'runs', what: 'which programs tools launch' }],
  [/^(npm_config_|yarn_|pnpm_config_)/i, { kind: 'runs', what: 'how the package manager runs scripts' }],
];

export function variableEffect(name: string): VariableEffect | null {
  return VARIABLES.find(([pattern]) => pattern.test(name))?.[1] ?? null;
}

// Values that send git's trace to stderr (or nowhere); a lone digit 2–9 is an open descriptor, whose redirect
// is judged on its own.
const TRACE_TO_STREAM = /^(|0|1|[2-9]|true|false|yes|no|on|off)$/i;

/**
 * What this value does for a variable with this effect. `value` null: the value is not visible in the text (read,
 * printf -v, an `export` of an inherited variable).
 */
export function judgeValue(name: string, effect: VariableEffect, value: ShellWord | null): ValueJudgement {
  if (effect.kind === 'runs') {
    if (value && !value.dynamic && effect.harmless?.test(value.text)) return { kind: 'harmless' };
    return { kind: 'ask', why: `sets ${name}, which changes ${effect.what}` };
  }
  if (value === null) return { kind: 'ask', why: `sets ${name}, whose value (a path written to) is not visible here` };
  if (value.dynamic) return { kind: 'ask', why: `sets ${name} to a path written to that is only known at run time` };
  if (effect.kind === 'trace') {
    if (TRACE_TO_STREAM.test(value.text)) return { kind: 'harmless' };
    if (/^af_unix:/i.test(value.text)) return { kind: 'ask', why: `sets ${name}, so git sends its trace to a socket (${value.text})` };
  } else if (value.text === '') {
    return { kind: 'harmless' };
  }
  return { kind: 'writes', target: value };
}
