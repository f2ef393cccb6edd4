import { posix } from 'node:path';
import { hasOption, mayHaveOption, optionValues, parseArgs, type ArgSpec } from './argv';
import { isPlaceholder, writeAppended, writeOperands, type CommandRule, type Invocation, type RuleSink } from './commandRule';
import { deviceKind, sweepingTarget } from './pathRisk';
import type { ShellWord } from './shellSyntax';

/** Programs that create, change or delete files: all destructive, and every path they touch is reported. */

function writeOne(inv: Invocation, sink: RuleSink, w: ShellWord): void {
  if (isPlaceholder(inv, w)) writeAppended(inv, sink);
  else sink.write(w);
}

function denySweeping(inv: Invocation, sink: RuleSink, operands: readonly ShellWord[], verb: string): void {
  for (const w of operands) {
    const why = isPlaceholder(inv, w) ? null : sweepingTarget(w.text, inv.paths);
    if (why) sink.flag('denied', `would ${verb} ${why} (${w.text})`);
  }
}

/** Every operand is written (rm, touch, mkdir, …). */
function operandsWritten(why: string, spec: ArgSpec = {}): CommandRule {
  return (inv, sink) => {
    sink.flag('destructive', why);
    writeOperands(inv, sink, parseArgs(inv.args, spec).operands);
  };
}

const TARGET_DIR: ArgSpec = { valued: ['t', 'S', 'target-directory', 'suffix'] };

/** cp, ln, install: the last operand (or -t DIR) is written; the others are read. */
function destinationWritten(why: string, spec: ArgSpec, lone?: (w: ShellWord) => ShellWord): CommandRule {
  return (inv, sink) => {
    sink.flag('destructive', why);
    const parsed = parseArgs(inv.args, spec);
    const dirs = optionValues(parsed, 't', 'target-directory');
    const last = parsed.operands[parsed.operands.length - 1];
    if (dirs.length > 0) dirs.forEach((d) => sink.write(d));
    else if (inv.appended && inv.appended.placeholder === undefined) writeAppended(inv, sink); // xargs supplies the last one
    else if (parsed.operands.length >= 2) writeOne(inv, sink, last);
    else if (last && lone) writeOne(inv, sink, lone(last));
  };
}

const rm: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args);
  const recursive = hasOption(parsed, 'r', 'R') || mayHaveOption(parsed, 'recursive');
  if (mayHaveOption(parsed, 'no-preserve-root')) sink.flag('denied', "turns off rm's protection of /");
  sink.flag('destructive', recursive ? 'deletes files and directories recursively' : 'deletes files');
  // Recursive with or without -f: without it rm still deletes everything it may write to.
  if (recursive) denySweeping(inv, sink, parsed.operands, 'delete');
  writeOperands(inv, sink, parsed.operands);
};

const mv: CommandRule = (inv, sink) => {
  sink.flag('destructive', 'moves or renames files');
  const parsed = parseArgs(inv.args, TARGET_DIR);
  optionValues(parsed, 't', 'target-directory').forEach((d) => sink.write(d));
  writeOperands(inv, sink, parsed.operands); // the sources disappear too
};

const install: CommandRule = (inv, sink) => {
  const spec: ArgSpec = { valued: ['m', 'o', 'g', 't', 'S', 'mode', 'owner', 'group', 'target-directory', 'suffix', 'strip-program'], flags: ['directory', 'backup', 'compare', 'preserve-timestamps', 'strip', 'verbose', 'no-target-directory'] };
  const parsed = parseArgs(inv.args, spec);
  if (hasOption(parsed, 'd', 'directory')) return operandsWritten('creates directories', spec)(inv, sink);
  destinationWritten('installs files', spec)(inv, sink);
};

const tee: CommandRule = (inv, sink) => {
  const files = parseArgs(inv.args).operands.filter((w) => w.dynamic || deviceKind(w.text) !== 'discard');
  if (files.length === 0 && !inv.appended) return; // `tee` alone, or into /dev/null: a plain pass-through
  sink.flag('destructive', 'writes its input to files');
  writeOperands(inv, sink, files);
};

const dd: CommandRule = (inv, sink) => {
  sink.flag('destructive', 'copies raw data');
  for (const arg of inv.args) {
    if (arg.text.startsWith('of=')) sink.write({ text: arg.text.slice(3), dynamic: arg.dynamic });
    else if (arg.dynamic) sink.flag('ask', 'an operand only known at run time could name the output');
  }
};

// chmod accepts a mode that looks like an option (`chmod -x f`); it is the mode, not a flag.
const CHMOD_MODE = /^-[rwxXst]+$/;

/** chmod, chown, chgrp: the first operand is the mode/owner (unless --reference), the rest are targets. */
function permissions(why: string): CommandRule {
  return (inv, sink) => {
    const modeIndex = inv.name === 'chmod' ? inv.args.findIndex((w) => !w.dynamic && CHMOD_MODE.test(w.text)) : -1;
    const args = inv.args.filter((_, i) => i !== modeIndex);
    const parsed = parseArgs(args, { valued: ['from'] });
    const explicit = modeIndex >= 0 || mayHaveOption(parsed, 'reference');
    const targets = explicit ? parsed.operands : parsed.operands.slice(1);
    sink.flag('destructive', why);
    if (mayHaveOption(parsed, 'no-preserve-root')) sink.flag('denied', 'turns off the protection of /');
    if (hasOption(parsed, 'R') || mayHaveOption(parsed, 'recursive')) denySweeping(inv, sink, targets, 'change');
    writeOperands(inv, sink, targets);
  };
}

// `kill -l` only lists signal names.
const KILL_LISTING = new Set(['-l', '-L', '--list', '--table']);

const kill: CommandRule = (inv, sink) => {
  if (!KILL_LISTING.has(inv.args[0]?.text ?? '')) sink.flag('destructive', 'sends a signal to processes');
};

export const FILE_RULES: Record<string, CommandRule> = {
  rm,
  rmdir: operandsWritten('removes directories'),
  unlink: operandsWritten('deletes a file'),
  mv,
  cp: destinationWritten('copies files, overwriting the destination', TARGET_DIR),
  ln: destinationWritten('creates links', TARGET_DIR, (w) => ({ text: posix.basename(w.text), dynamic: w.dynamic })),
  install,
  touch: operandsWritten('creates files or changes their timestamps', { valued: ['d', 'r', 't', 'date', 'reference'] }),
  mkdir: operandsWritten('creates directories', { valued: ['m', 'mode'] }),
  truncate: operandsWritten('cuts files to a size', { valued: ['s', 'r', 'size', 'reference'] }),
  shred: operandsWritten('overwrites files so they cannot be recovered', { valued: ['n', 's', 'iterations', 'size', 'random-source'] }),
  tee,
  dd,
  chmod: permissions('changes file permissions'),
  chown: permissions('changes file ownership'),
  chgrp: permissions('changes file group'),
  kill,
  pkill: (_inv, sink) => sink.flag('destructive', 'kills processes by name'),
  killall: (_inv, sink) => sink.flag('destructive', 'kills processes by name'),
};
