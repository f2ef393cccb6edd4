import { execFile } from 'node:child_process';

export type GitRun = { ok: true; stdout: Buffer } | { ok: false; problem: string };

export interface GitRunOptions {
  /** Default 10 s: git answers these in milliseconds; a hung repository must not hold a write or a gate. */
  timeoutMs?: number;
  /** Past this the run fails rather than returning part of a blob. Default 1 GiB. */
  maxBytes?: number;
  signal?: AbortSignal;
}

/**
 * Runs git in `cwd` and returns its stdout as bytes, or why it could not. The caller's GIT_* variables are dropped
 * (a GIT_DIR pointing elsewhere would answer for another repository) and the repository's fsmonitor and pager are
 * switched off: a checkout's own config must not make the governor run a program.
 */
export function runGit(cwd: string, args: string[], options: GitRunOptions = {}): Promise<GitRun> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
  const argv = ['--no-optional-locks', '-c', 'core.fsmonitor=false', '-c', 'core.pager=cat', '-c', 'core.quotePath=false', ...args];
  return new Promise((resolve) => {
    execFile(
      'git',
      argv,
      { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' }, encoding: 'buffer', maxBuffer: options.maxBytes ?? 1024 ** 3, timeout: options.timeoutMs ?? 10_000, signal: options.signal, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout });
        const said = Buffer.isBuffer(stderr) ? stderr.toString('utf8').trim().split('\n')[0] : '';
        resolve({ ok: false, problem: said || error.message });
      },
    );
  });
}

/** `git <args>` as trimmed text, or undefined when git failed. */
export async function gitText(cwd: string, args: string[], options?: GitRunOptions): Promise<string | undefined> {
  const run = await runGit(cwd, args, options);
  return run.ok ? run.stdout.toString('utf8').trim() : undefined;
}
