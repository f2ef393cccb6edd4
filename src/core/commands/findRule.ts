import { word, type CommandRule } from './commandRule';
import type { ShellWord } from './shellSyntax';

/** find and fd: read-only searches, unless they delete, write their results, or run a command per match. */

const GLOBAL_OPTIONS = /^-([HLP]|O\d*)$/;
const EXPRESSION_START = /^[-(!),]/;
const EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
// Actions that write their output to a file, and how many words follow them (the first is the file).
const FILE_ACTIONS: Record<string, number> = { '-fprint': 1, '-fprint0': 1, '-fls': 1, '-fprintf': 2 };

export const find: CommandRule = (inv, sink) => {
  const args = inv.args;
  let i = 0;
  while (i < args.length && !args[i].dynamic && (GLOBAL_OPTIONS.test(args[i].text) || args[i].text === '-D')) {
    i += args[i].text === '-D' ? 2 : 1;
  }
  const roots: ShellWord[] = [];
  while (i < args.length && (args[i].dynamic || !EXPRESSION_START.test(args[i].text))) roots.push(args[i++]);
  if (roots.length === 0) roots.push(word('.'));
  if (args.some((w) => w.dynamic)) sink.flag('ask', 'an argument only known at run time could be an action like -delete or -exec');
  for (; i < args.length; i++) {
    const action = args[i].dynamic ? '' : args[i].text;
    if (action === '-delete') {
      sink.flag('destructive', 'deletes every file it matches');
      roots.forEach((r) => sink.write(r));
    } else if (EXEC_ACTIONS.has(action)) {
      const end = args.findIndex((w, j) => j > i && !w.dynamic && (w.text === ';' || w.text === '+'));
      const command = args.slice(i + 1, end < 0 ? args.length : end);
      i = end < 0 ? args.length : end;
      // `{}` stands for each match: the command's writes land under the roots.
      if (command.length > 0) sink.run(command, { within: roots, placeholder: '{}' });
    } else if (Object.hasOwn(FILE_ACTIONS, action) && args[i + 1]) {
      sink.flag('destructive', 'writes its results to a file');
      sink.write(args[i + 1]);
      i += FILE_ACTIONS[action];
    }
  }
};

const FD_EXEC = new Set(['--exec', '--exec-batch']);
// -x and -X also end a cluster of flags (`fd -Hx rm`).
const FD_EXEC_CLUSTER = /^-[A-Za-z0-9]*[xX]$/;
const FD_PLACEHOLDER = /\{[/.]*\}/;

export const fd: CommandRule = (inv, sink) => {
  if (inv.args.some((w) => w.dynamic)) sink.flag('ask', 'an argument only known at run time could be --exec');
  const at = inv.args.findIndex((w) => !w.dynamic && (FD_EXEC.has(w.text) || FD_EXEC_CLUSTER.test(w.text)));
  if (at < 0) return;
  let command = inv.args.slice(at + 1);
  const end = command.findIndex((w) => !w.dynamic && w.text === ';');
  if (end >= 0) command = command.slice(0, end);
  // fd substitutes {} {/} {.} …, or appends the path when the command names none.
  const placeholder = command.some((w) => FD_PLACEHOLDER.test(w.text)) ? '{' : undefined;
  if (command.length > 0) sink.run(command, placeholder ? { within: null, placeholder } : { within: null });
};
