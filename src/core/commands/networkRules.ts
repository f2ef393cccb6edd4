import { posix } from 'node:path';
import { hasOption, mayHaveOption, optionValues, parseArgs } from './argv';
import { always, type CommandRule, type RuleSink } from './commandRule';
import type { ShellWord } from './shellSyntax';

/**
 * Network tools. Any fetch is destructive: the URL itself can carry data out, and what comes back
 * is untrusted. Files they save are write targets.
 */

/** The file name curl -O / wget give a download: the URL's last path segment. */
function remoteName(url: ShellWord, fallback: string | null): ShellWord | null {
  if (url.dynamic) return url;
  const path = url.text.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  const name = posix.basename(path);
  if (name !== '' && !path.endsWith('/')) return { text: name, dynamic: false };
  return fallback === null ? null : { text: fallback, dynamic: false };
}

function inDir(dir: ShellWord | undefined, file: ShellWord): ShellWord {
  return dir ? { text: posix.join(dir.text, file.text), dynamic: dir.dynamic || file.dynamic } : file;
}

// '-' is stdout; '%' is stderr for --stderr.
function writeUnlessStream(sink: RuleSink, files: ShellWord[]): void {
  files.filter((w) => w.dynamic || (w.text !== '-' && w.text !== '%')).forEach((w) => sink.write(w));
}

const CURL_WRITES = ['o', 'output', 'D', 'dump-header', 'c', 'cookie-jar', 'trace', 'trace-ascii', 'stderr', 'libcurl', 'etag-save', 'hsts', 'alt-svc'];
const CURL_VALUED = [
  ...CURL_WRITES, 'output-dir', 'H', 'header', 'd', 'data', 'data-raw', 'data-binary', 'data-urlencode', 'data-ascii',
  'F', 'form', 'form-string', 'X', 'request', 'u', 'user', 'A', 'user-agent', 'e', 'referer', 'b', 'cookie', 'T',
  'upload-file', 'K', 'config', 'x', 'proxy', 'm', 'max-time', 'connect-timeout', 'retry', 'w', 'write-out', 'r',
  'range', 'C', 'continue-at', 'E', 'cert', 'key', 'cacert', 'U', 'proxy-user', 'url', 'resolve', 'connect-to',
  'max-filesize', 'limit-rate', 'json', 'oauth2-bearer', 'max-redirs', 'Y', 'y', 'z', 'Q', 't',
];

const curl: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: CURL_VALUED });
  sink.flag('destructive', 'makes a network request');
  if (mayHaveOption(parsed, 'config') || hasOption(parsed, 'K')) sink.flag('ask', 'reads more options from a file (-K)');
  writeUnlessStream(sink, CURL_WRITES.flatMap((name) => optionValues(parsed, name)));
  if (hasOption(parsed, 'J') || mayHaveOption(parsed, 'remote-header-name')) sink.writeUnknown();
  if (hasOption(parsed, 'O') || mayHaveOption(parsed, 'remote-name', 'remote-name-all')) {
    const dir = optionValues(parsed, 'output-dir')[0];
    for (const url of [...parsed.operands, ...optionValues(parsed, 'url')]) {
      const name = remoteName(url, null);
      if (name) sink.write(inDir(dir, name));
    }
  }
};

const WGET_VALUED = [
  'O', 'o', 'a', 'P', 'i', 'e', 'U', 't', 'T', 'w', 'Q', 'l', 'A', 'R', 'D', 'X', 'I', 'B', 'output-document',
  'output-file', 'append-output', 'directory-prefix', 'input-file', 'execute', 'config', 'user-agent', 'header',
  'tries', 'timeout', 'wait', 'quota', 'level', 'accept', 'reject', 'domains', 'exclude-directories',
  'include-directories', 'base', 'user', 'password', 'post-data', 'post-file', 'body-data', 'body-file', 'method',
  'limit-rate', 'load-cookies', 'save-cookies', 'referer', 'default-page', 'cut-dirs',
];

const wget: CommandRule = (inv, sink) => {
  const parsed = parseArgs(inv.args, { valued: WGET_VALUED });
  sink.flag('destructive', 'downloads from the network');
  if (hasOption(parsed, 'e', 'i') || mayHaveOption(parsed, 'execute', 'config', 'input-file')) {
    sink.flag('ask', 'takes commands or URLs from elsewhere (-e, -i, --config)');
  }
  if (hasOption(parsed, 'r', 'm', 'p', 'x') || mayHaveOption(parsed, 'recursive', 'mirror', 'page-requisites', 'force-directories')) {
    sink.flag('ask', 'saves files under names the server decides');
    sink.writeUnknown();
  }
  writeUnlessStream(sink, optionValues(parsed, 'o', 'a', 'output-file', 'append-output', 'save-cookies'));
  const documents = optionValues(parsed, 'O', 'output-document');
  if (documents.length > 0) return writeUnlessStream(sink, documents);
  const dir = optionValues(parsed, 'P', 'directory-prefix')[0];
  for (const url of parsed.operands) {
    const name = remoteName(url, 'index.html');
    if (name) sink.write(inDir(dir, name));
  }
};

/** rsync/scp: the last operand is the destination; `host:path` is another machine, not a local write. */
function copier(why: string, valued: string[]): CommandRule {
  return (inv, sink) => {
    const parsed = parseArgs(inv.args, { valued });
    sink.flag('destructive', why);
    const shell = optionValues(parsed, 'e', 'rsh')[0];
    if (shell && (shell.dynamic || !/^ssh(\s|$)/.test(shell.text))) sink.flag('ask', 'runs a custom remote shell command (-e)');
    const dest = parsed.operands.length >= 2 ? parsed.operands[parsed.operands.length - 1] : undefined;
    if (dest && !/^[^/]*:/.test(dest.text)) sink.write(dest);
  };
}

export const NETWORK_RULES: Record<string, CommandRule> = {
  curl,
  wget,
  rsync: copier('copies files, possibly to or from another machine', ['e', 'rsh', 'f', 'filter', 'exclude', 'include', 'exclude-from', 'include-from', 'files-from', 'rsync-path', 'B', 'T', 'temp-dir', 'backup-dir', 'suffix', 'chmod', 'chown', 'timeout', 'port', 'password-file']),
  scp: copier('copies files to or from another machine', ['P', 'i', 'o', 'F', 'J', 'l', 'c', 'S']),
  ssh: always('ask', 'runs commands on another machine'),
};
