import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errnoOf } from '../../ioError';
import { MAX_REQUEST_BODY_BYTES } from '../../tools/requestBodyCap';
import { AGENT_HOOK_PATH, ENDPOINTS_IN_HOME, FORWARDED_ENV, forwardedEnvHeader, RESIDENT_HEADERS, STDERR_MARKER } from './residentProtocol';
import { homeStore } from '../../paths/userStores';

/**
 * The hook launcher: one small sh script per user, `<governor home>/bin/governor-hook`, that runs this machine's
 * `dist/hook.js`. Hook files committed to a repository name the launcher (see hookCommand.ts), never a path on one
 * machine, so a teammate's clone runs the teammate's own installation. `governor hooks install` writes it, and the
 * extension on every start (its folder changes with each version); either rewrites it when it points elsewhere.
 */


/** The most the launcher reads of its input or of the answer: one byte past the resident's body cap, so an input too large is refused there. */
const READ_LIMIT = MAX_REQUEST_BODY_BYTES + 1;

/** The first lines of every launcher we write. */
const MARKER = '# intent-governor: hook launcher';

export function hookLauncherPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(homeStore('bin', env), 'governor-hook');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/gu, "'\\''")}'`;
}

/** Where the resident client lives beside the launcher: bash sources it in the agent's own hook shell. */
export const RESIDENT_CLIENT_SUFFIX = '.bash';

/**
 * What the resident client does when it cannot pass on a whole answer after it has taken the hook input: in the
 * launcher, the Node hook decides; sourced into an agent's hook shell, the input is handed back on stdin and the
 * hook command runs the launcher as a process (which ends in the Node hook).
 */
type ClientMode = 'launcher' | 'sourced';

/**
 * The resident client: for `hook <agent> --timeout-ms N` in a governed folder whose resident governor has left its
 * endpoint (residentProtocol.ts), the hook input goes there over bash's own /dev/tcp and the answer is printed as the
 * Node hook would print it. No endpoint, a resident that is gone (its pid or its connection refused) or one that does
 * not govern this folder (421): the text falls through, before reading stdin when it can. A resident that does not answer
 * in time is a refusal, never an allow. `INTENT_GOVERNOR_RESIDENT=off` always falls through.
 */
function residentClientText(mode: ClientMode): string {
  const forwarded = FORWARDED_ENV.map((name) => `[ -z "\${${name}+x}" ] || ig_h+="${forwardedEnvHeader(name)}: \$${name}"$'\\r\\n'`).join('\n    ');
  const refuse = mode === 'launcher'
    ? `echo "Intent Governor blocked this call: the resident governor of $ig_w (pid $ig_pid) did not answer within $ig_d s, so the call is refused (fail closed)." >&2
      exit 2`
    : `# The hook command's own block (ig_block, in the agent's terms); a shell without one gets exit 2 and the reason.
      ig_m="its resident governor (pid $ig_pid) did not answer within $ig_d s, so this call is refused (governance fails closed)."; ig_d="resident of $ig_w"
      ! declare -F ig_block >/dev/null || ig_block
      echo "Intent Governor blocked this call: $ig_m" >&2
      exit 2`;
  const fallThrough = mode === 'launcher'
    ? `node_hook
    printf '%s' "$ig_in" | node "$hook" hook "$ig_a" --timeout-ms "$ig_t"
    exit $?`
    : `trap - PIPE
    # The input goes back on stdin for the hook command's next step, the launcher as a process.
    exec 0< <(printf '%s' "$ig_in")`;
  return `if [ "$1" = hook ] && [ $# -eq 4 ] && [ "$3" = --timeout-ms ] && [ "\${INTENT_GOVERNOR_RESIDENT:-on}" != off ] && cd -P . 2>/dev/null; then
  ig_w=$PWD
  while [ -n "$ig_w" ] && [ ! -d "$ig_w/.orchestration" ]; do ig_w=\${ig_w%/*}; done
  ig_k=\${ig_w//%/%25}
  ig_f="\${INTENT_GOVERNOR_HOME:-$HOME/.intent-governor}/${ENDPOINTS_IN_HOME}/\${ig_k//\\//%2F}.endpoint"
  # kill -0 (a builtin): a resident that died without removing its endpoint left a port another program may listen on now.
  if [ -n "$ig_w" ] && [ -r "$ig_f" ] && read -r ig_port ig_tok ig_pid < "$ig_f" && kill -0 "$ig_pid" 2>/dev/null && { exec 3<>"/dev/tcp/127.0.0.1/$ig_port"; } 2>/dev/null; then
    # A resident that dies while the request is written must not kill this shell (SIGPIPE): the Node hook decides then.
    trap '' PIPE
    # Bytes, not characters, for Content-Length; read -N takes stdin in whole blocks (bash ≥ 5), where cat is a process.
    ig_lc=\${LC_ALL-}; LC_ALL=C
    ig_a=$2; ig_t=$4
    if [ "\${BASH_VERSINFO[0]}" -ge 5 ]; then IFS= read -r -N ${READ_LIMIT} ig_in; else ig_in=$(cat); fi
    ig_h=
    ${forwarded}
    # This shell's pid and start time (field 22 of /proc/$$/stat), builtins only: the governor finds the agent above it
    # and ends its session once the agent is gone. No /proc (macOS): not sent, and the session keeps the idle sweep.
    if { IFS= read -r ig_st < /proc/$$/stat; } 2>/dev/null; then
      ig_st=(\${ig_st##*) })
      case \${ig_st[19]-} in ''|*[!0-9]*) ;; *) ig_h+="${RESIDENT_HEADERS.caller}: $$ \${ig_st[19]}"$'\\r\\n' ;; esac
    fi
    printf 'POST ${AGENT_HOOK_PATH} HTTP/1.1\\r\\nHost: 127.0.0.1:%s\\r\\nAuthorization: Bearer %s\\r\\nContent-Type: application/json\\r\\nConnection: close\\r\\nContent-Length: %s\\r\\n${RESIDENT_HEADERS.agent}: %s\\r\\n${RESIDENT_HEADERS.cwd}: %s\\r\\n${RESIDENT_HEADERS.timeoutMs}: %s\\r\\n%s\\r\\n%s' "$ig_port" "$ig_tok" "\${#ig_in}" "$ig_a" "$PWD" "$ig_t" "$ig_h" "$ig_in" >&3 2>/dev/null
    # The first byte waits for the decision, with the timeout; the header lines follow at once, in the same write, so
    # they are read without one (read -t costs three more system calls per byte, and a shell reads a socket bytewise).
    # The body by its Content-Length: the resident may still be recording the call after its answer, so its end of
    # the connection can close later than that.
    ig_d=$((ig_t / 1000 + 1)); ig_n=
    IFS= read -r -n 1 -t $ig_d ig_o <&3
    ig_r=$?
    [ $ig_r -eq 0 ] && { IFS= read -r ig_hl <&3; ig_o+=$ig_hl; }
    if [ $ig_r -eq 0 ] && [ "\${BASH_VERSINFO[0]}" -ge 5 ]; then
      while IFS= read -r ig_hl <&3 && [ "$ig_hl" != $'\\r' ]; do
        case $ig_hl in [Cc]ontent-[Ll]ength:*) ig_n=\${ig_hl#*:}; ig_n=\${ig_n//[!0-9]/} ;; esac
      done
      IFS= read -r -N "\${ig_n:-${READ_LIMIT}}" -t $ig_d ig_b <&3
      [ $? -gt 128 ] && ig_r=142
      ig_o+=$'\\n\\r\\n'$ig_b
    elif [ $ig_r -eq 0 ]; then
      IFS= read -r -d '' -t $ig_d ig_b <&3
      [ $? -gt 128 ] && ig_r=142
      ig_o+=$'\\n'$ig_b
    fi
    exec 3<&-
    if [ $ig_r -gt 128 ]; then
      ${refuse}
    fi
    # Only a whole answer counts (its stderr marker and final dot): one cut short by a resident that died while
    # writing it goes to the Node hook, never to the agent half read.
    case $ig_o in
      'HTTP/1.1 200 '*$'\\n${STDERR_MARKER}\\n'*.)
        ig_o=\${ig_o#*$'\\r\\n\\r\\n'}; ig_c=\${ig_o%%$'\\n'*}; ig_o=\${ig_o#*$'\\n'}; ig_o=\${ig_o%.}
        case $ig_c in
          0|1|2)
            ig_s=\${ig_o#*$'\\n${STDERR_MARKER}\\n'}; ig_o=\${ig_o%$'\\n${STDERR_MARKER}\\n'*}
            [ -z "$ig_o" ] || printf '%s' "$ig_o"
            [ -z "$ig_s" ] || printf '%s' "$ig_s" >&2
            exit "$ig_c" ;;
        esac ;;
    esac
    if [ -n "$ig_lc" ]; then LC_ALL=$ig_lc; else unset LC_ALL; fi
    ${fallThrough}
  fi
fi
`;
}

/**
 * The launcher's text for the hook bundle at `hookScript` (absolute). It runs on every tool call, so it starts no
 * process when it can help it: with bash (`bash`, the path of one; null for none) it is first the resident client
 * (residentClientText); when that falls through the Node hook decides, as before, and starts a resident for the next
 * call.
 *
 * For the Node hook, `exec` hands the process, stdin and all, to node. A bundle that is gone or a node that is not on
 * PATH is exit 127 with the reason on stderr: not 2, which some agents take as a whole answer, so the wrapping in every
 * installed command prints that agent's full blocking answer (Cursor's and Copilot CLI's JSON, Cline's cancel).
 */
export function hookLauncherText(hookScript: string, bash: string | null = systemBash()): string {
  const header = `${MARKER}, written by \`governor hooks install\` and by the Intent Governor extension when it starts.
# Agents' hook files name this script instead of a path on one machine. Rewritten whenever it points elsewhere.
hook=${shellQuote(hookScript)}
node_hook() {
  if [ ! -f "$hook" ] && ! other_hook; then
    echo "Intent Governor blocked this call: its hook launcher ($0) points at $hook, which is not there any more, and no other Intent Governor was found (no extension under ${INSTALLED_EXTENSION_DIRS.map((dir) => `~/${dir}`).join(', ')}, no governor on PATH). Start VS Code with the Intent Governor extension (it rewrites the launcher) or run governor hooks install." >&2
    exit 127
  fi
  command -v node >/dev/null 2>&1 || { echo "Intent Governor blocked this call: node is not on the PATH its hook runs with ($PATH), so the hook cannot start. Install Node.js 22.13 or later, or put it on that PATH." >&2; exit 127; }
}
${otherHookText()}`;
  if (bash === null) return `#!/bin/sh\n${header}node_hook\nexec node "$hook" "$@"\n`;
  return `#!${bash}\n${header}${residentClientText('launcher')}node_hook\nexec node "$hook" "$@"\n`;
}

/** Where editors install extensions, under the home: VS Code, VS Code's remote server, code-server. */
const INSTALLED_EXTENSION_DIRS = ['.vscode/extensions', '.vscode-server/extensions', '.local/share/code-server/extensions'];

/** How an installed copy of this extension's folder is named (`<publisher>.<name>-<version>`). */
const EXTENSION_FOLDER_PREFIX = 'intent-governor.intent-governor-';

/**
 * `other_hook`: the launcher's copy is gone (its folder deleted, an older version removed), so every project's hooks
 * would fail closed for one copy. It looks, at run time, for a governor that exists: the newest installed extension
 * (by version, whichever editor), else the hook bundle beside the `governor` CLI on PATH (through its links, as npm
 * links it). POSIX sh and a few processes, but only on this path: while the recorded copy exists, none of it runs.
 */
function otherHookText(): string {
  const dirs = INSTALLED_EXTENSION_DIRS.map((dir) => `"$HOME/${dir}"`).join(' ');
  return `other_hook() {
  ig_tab=$(printf '\\t')
  ig_found=$(for ig_x in ${dirs}; do
      for ig_c in "$ig_x"/${EXTENSION_FOLDER_PREFIX}*/dist/hook.js; do
        [ -f "$ig_c" ] || continue
        ig_v=\${ig_c%/dist/hook.js}; ig_v=\${ig_v##*/${EXTENSION_FOLDER_PREFIX}}
        printf '%s\\t%s\\n' "$ig_v" "$ig_c"
      done
    done | sort -t "$ig_tab" -k1,1rV | head -n 1 | cut -f2)
  if [ -z "$ig_found" ] && ig_cli=$(command -v governor 2>/dev/null); then
    ig_cli=$(readlink -f "$ig_cli" 2>/dev/null || printf '%s' "$ig_cli")
    [ ! -f "\${ig_cli%/*}/hook.js" ] || ig_found=\${ig_cli%/*}/hook.js
  fi
  [ -n "$ig_found" ] || return 1
  hook=$ig_found
}
`;
}

/**
 * The resident client that hook commands source when the agent runs them with bash (hookCommand.ts): no process of
 * its own, where the launcher is one more bash per call. It returns to the command when it cannot answer.
 */
export function residentClientSourceText(): string {
  return `${MARKER} (resident client), written beside the launcher. Hook commands source it under bash: no shebang.
# bash in POSIX mode (sh on some systems) ends the shell on a failed redirection: the command runs the launcher then.
if [ -n "\${BASH_VERSION-}" ] && ! shopt -oq posix; then
${residentClientText('sourced')}fi
`;
}

/** The bash the launcher runs under, where this machine has one (its /dev/tcp reaches the resident with no process). */
function systemBash(): string | null {
  return ['/bin/bash', '/usr/bin/bash'].find((path) => existsSync(path)) ?? null;
}

/** The file system the launcher is written through (a port: tests give their own). */
export interface LauncherFiles {
  /** The file's text and permission bits; undefined when there is no such file. */
  read(file: string): Promise<{ text: string; mode: number } | undefined>;
  /** Replaces `file` whole (its folder created) with these permission bits. */
  write(file: string, text: string, mode: number): Promise<void>;
}

export const nodeLauncherFiles: LauncherFiles = {
  async read(file) {
    try {
      const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
      return { text, mode: info.mode & 0o777 };
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined;
      throw error;
    }
  },
  async write(file, text, mode) {
    await mkdir(dirname(file), { recursive: true });
    // A temp file and a rename: an agent's hook running right now reads the old launcher or the new one, never half.
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await writeFile(temp, text, { mode });
      await chmod(temp, mode); // the umask may have taken bits away
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  },
};

export interface LauncherChange {
  file: string;
  action: 'written' | 'unchanged';
}

/**
 * Writes the launcher for `hookScript` (readable and executable by everyone, writable by its owner) and the resident
 * client beside it (readable, not executable: it is only ever sourced), each unless it is already exactly that.
 */
export async function ensureHookLauncher(env: NodeJS.ProcessEnv, hookScript: string, files: LauncherFiles = nodeLauncherFiles): Promise<LauncherChange> {
  const file = hookLauncherPath(env);
  const wanted = [
    { file: `${file}${RESIDENT_CLIENT_SUFFIX}`, text: residentClientSourceText(), mode: 0o644 },
    // The launcher last: a command that finds it finds the client it sources too.
    { file, text: hookLauncherText(hookScript), mode: 0o755 },
  ];
  let action: LauncherChange['action'] = 'unchanged';
  for (const one of wanted) {
    const current = await files.read(one.file);
    if (current?.text === one.text && current.mode === one.mode) continue;
    await files.write(one.file, one.text, one.mode);
    action = 'written';
  }
  return { file, action };
}
