import { hasOption, mayHaveOption, optionValues, parseArgs, type ArgSpec } from './argv';
import { always, type CommandRule } from './commandRule';
import type { ShellWord } from './shellSyntax';

/** Programs that run another program; what matters is the program they run, so they unwrap to it. */

/** Options end at the first operand; `skip` operands belong to the wrapper (timeout's DURATION). */
function wrapper(spec: ArgSpec, skip = 0): CommandRule {
  return (inv, sink) => {
    const inner = parseArgs(inv.args, { ...spec, stopAtOperand: true }).rest.slice(skip);
    if (inner.length > 0) sink.unwrap(inner);
  };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

const ENV_OPTIONS: ArgSpec = { valued: ['u', 'C', 'S', 'unset', 'chdir', 'split-string'], flags: ['ignore-environment', 'null', 'debug', 'help', 'version'], stopAtOperand: true };

// env -C DIR runs the program in DIR, so its relative paths start there.
const env: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, ENV_OPTIONS);
  if (hasOption(parsed, 'S') || mayHaveOption(parsed, 'split-string')) sink.flag('ask', 'splits a string into a command (-S)');
  let at = sink;
  for (const dir of optionValues(parsed, 'C', 'chdir')) at = at.within(dir);
  let rest = parsed.rest;
  while (rest.length > 0 && !rest[0].dynamic && ASSIGNMENT.test(rest[0].text)) {
    sink.assign(rest[0]);
    rest = rest.slice(1);
  }
  if (rest.length > 0) at.unwrap(rest); // `env` alone only prints the environment
};

const command: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { stopAtOperand: true });
  if (hasOption(parsed, 'v', 'V')) return; // lookup only
  if (parsed.rest.length > 0) sink.unwrap(parsed.rest);
};

const time: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['o', 'f', 'output', 'format'], stopAtOperand: true });
  const outputs = optionValues(parsed, 'o', 'output');
  if (outputs.length > 0) sink.flag('destructive', 'writes its timings to a file');
  outputs.forEach((w) => sink.write(w));
  if (parsed.rest.length > 0) sink.unwrap(parsed.rest);
};

/** xargs runs its command with arguments read from stdin: unknown now, appended or put in place of -I's string. */
const xargs: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, {
    valued: ['I', 'L', 'n', 'P', 's', 'd', 'E', 'a', 'arg-file', 'delimiter', 'max-args', 'max-lines', 'max-procs', 'max-chars', 'process-slot-var'],
    attached: ['i', 'e', 'l'],
    stopAtOperand: true,
  });
  const replace = [...optionValues(parsed, 'I', 'replace'), ...optionValues(parsed, 'i').map((w) => (w.text === '' ? { ...w, text: '{}' } : w))];
  const placeholder = replace[0]?.text ?? (parsed.options.some((o) => o.name === 'replace') ? '{}' : undefined);
  const inner: ShellWord[] = parsed.rest.length > 0 ? parsed.rest : [{ text: 'echo', dynamic: false }];
  sink.unwrap(inner, placeholder === undefined ? { within: null } : { within: null, placeholder });
};

const privileged = always('denied', 'runs as another user (privilege escalation)');

/** sudo/doas: denied whatever they run; the inner command is still shown and classified. */
function escalation(spec: ArgSpec): CommandRule {
  return (inv, sink) => {
    privileged(inv, sink);
    const inner = parseArgs(inv.args, { ...spec, stopAtOperand: true }).rest;
    if (inner.length > 0) sink.unwrap(inner);
  };
}

// watch runs its arguments through `sh -c` unless -x.
const watch: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['n', 'interval', 'q', 'equexit'], stopAtOperand: true });
  if (parsed.rest.length === 0) return;
  if (hasOption(parsed, 'x') || mayHaveOption(parsed, 'exec')) return sink.unwrap(parsed.rest);
  const code = { text: parsed.rest.map((w) => w.text).join(' '), dynamic: parsed.rest.some((w) => w.dynamic) };
  sink.script(code, 'watch');
};

const ionice: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['c', 'n', 'p', 'P', 'u', 'class', 'classdata', 'pid', 'pgid', 'uid'], stopAtOperand: true });
  if (hasOption(parsed, 'p', 'P', 'u') || mayHaveOption(parsed, 'pid', 'pgid', 'uid')) sink.flag('destructive', 'changes the I/O priority of other processes');
  if (parsed.rest.length > 0) sink.unwrap(parsed.rest);
};

export const WRAPPER_RULES: Record<string, CommandRule> = {
  env,
  timeout: wrapper({ valued: ['s', 'k', 'signal', 'kill-after'] }, 1),
  nice: wrapper({ valued: ['n', 'adjustment'] }),
  nohup: wrapper({}),
  setsid: wrapper({}),
  stdbuf: wrapper({ valued: ['i', 'o', 'e', 'input', 'output', 'error'] }),
  exec: wrapper({ valued: ['a'] }), // `exec` alone only applies its redirects
  builtin: wrapper({}),
  command,
  time,
  xargs,
  watch,
  ionice,
  sudo: escalation({ valued: ['u', 'g', 'h', 'p', 'C', 'D', 'r', 't', 'U', 'T', 'user', 'group', 'host', 'prompt', 'close-from', 'chdir', 'role', 'type', 'other-user', 'command-timeout'] }),
  doas: escalation({ valued: ['u', 'C'] }),
  su: privileged,
};
