import { hasOption, mayHaveOption, optionValues, parseArgs, type ArgSpec } from './argv';
import { word, writeOperands, type CommandRule } from './commandRule';

/** Archivers: listing is safe; extracting writes under its target directory; creating writes the archive. */

const TAR_VALUED = [
  'f', 'C', 'b', 'T', 'X', 'K', 'N', 'g', 'V', 'H', 'L', 'file', 'directory', 'files-from', 'exclude-from', 'exclude',
  'listed-incremental', 'format', 'label', 'newer', 'starting-file', 'blocking-factor', 'owner', 'group', 'mode', 'transform',
];
const TAR_RUNS = ['to-command', 'use-compress-program', 'checkpoint-action', 'info-script', 'new-volume-script', 'rsh-command'];
const TAR_WRITES_ARCHIVE = ['c', 'r', 'u', 'A', 'create', 'append', 'update', 'catenate', 'concatenate', 'delete'];

const tar: CommandRule = (inv, sink) => {
  // Old style: `tar xzf a.tgz` bundles the letters without a dash.
  const [first, ...others] = inv.args;
  const args = first && !first.dynamic && !first.text.startsWith('-') ? [word(`-${first.text}`), ...others] : inv.args;
  const parsed = parseArgs(args, { valued: TAR_VALUED });
  if (parsed.opaque) sink.flag('ask', 'an argument only known at run time could change what tar writes');
  if (hasOption(parsed, 'I', 'F') || mayHaveOption(parsed, ...TAR_RUNS)) sink.flag('ask', 'runs another program');
  const archives = optionValues(parsed, 'f', 'file').filter((w) => w.dynamic || w.text !== '-');
  if (hasOption(parsed, 'x') || mayHaveOption(parsed, 'extract', 'get')) {
    sink.flag('destructive', 'extracts files');
    (optionValues(parsed, 'C', 'directory')[0] ? optionValues(parsed, 'C', 'directory') : [word('.')]).forEach((d) => sink.write(d));
  } else if (hasOption(parsed, ...TAR_WRITES_ARCHIVE.filter((n) => n.length === 1)) || mayHaveOption(parsed, ...TAR_WRITES_ARCHIVE.filter((n) => n.length > 1))) {
    sink.flag('destructive', 'writes an archive');
    archives.forEach((w) => sink.write(w));
  } else if (!hasOption(parsed, 't', 'd') && !mayHaveOption(parsed, 'list', 'diff', 'compare', 'version', 'help')) {
    sink.flag('ask', 'has no mode we recognise (-c, -x, -t)');
  }
};

const unzip: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['d', 'P', 'x', 'I', 'O'] });
  if (hasOption(parsed, 'l', 'v', 't', 'Z', 'p', 'z')) return; // list, test, or print to stdout
  sink.flag('destructive', 'extracts files');
  (optionValues(parsed, 'd')[0] ? optionValues(parsed, 'd') : [word('.')]).forEach((d) => sink.write(d));
};

const ZIP_OPTIONS: ArgSpec = { valued: ['b', 'n', 't', 'P', 'O', 'Z', 'x', 'i', 'TT', 'unzip-command', 'output-file', 'temp-path', 'password', 'suffixes', 'exclude', 'include'], flags: ['test', 'recurse-paths', 'move', 'update', 'freshen', 'delete', 'quiet', 'verbose', 'junk-paths', 'encrypt'] };

const zip: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, ZIP_OPTIONS);
  if (inv.args.some((w) => w.text.startsWith('-TT')) || mayHaveOption(parsed, 'unzip-command')) sink.flag('ask', 'runs another program (-TT)');
  const outputs = optionValues(parsed, 'O', 'output-file');
  outputs.forEach((w) => sink.write(w));
  const archive = parsed.operands[0];
  sink.flag('destructive', 'writes an archive');
  if (archive) sink.write(archive);
};

/** gzip and friends replace each file with its (de)compressed form, unless writing to stdout. */
const inPlaceCompressor: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: ['S', 'suffix'] });
  if (hasOption(parsed, 'c', 'l', 't', 'h', 'V') || mayHaveOption(parsed, 'stdout', 'to-stdout', 'list', 'test', 'help', 'version')) return;
  const files = parsed.operands.filter((w) => w.dynamic || w.text !== '-');
  if (files.length === 0 && !inv.appended) return; // stdin to stdout
  sink.flag('destructive', 'replaces files with their compressed or decompressed form');
  writeOperands(inv, sink, files);
};

export const ARCHIVE_RULES: Record<string, CommandRule> = {
  tar,
  unzip,
  zip,
  gzip: inPlaceCompressor,
  gunzip: inPlaceCompressor,
  bzip2: inPlaceCompressor,
  bunzip2: inPlaceCompressor,
  xz: inPlaceCompressor,
  unxz: inPlaceCompressor,
};
