import { spawn, type ChildProcess } from 'node:child_process';

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <script> ...args` to completion, collecting output. */
export function runNode(script: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): Promise<Finished> {
  return finished(spawn(process.execPath, [script, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
}

export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** `finished`, with a deadline: a child still running after `limitMs` is killed, so a hung agent fails its test, not the whole run. */
export async function finishedWithin(child: ChildProcess, limitMs: number): Promise<Finished> {
  const killer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  try {
    return await finished(child);
  } finally {
    clearTimeout(killer);
  }
}

/** Writes `stdin` to the child and waits; a child still running after `limitMs` is killed, and `gaveUp` says so. */
export async function finishedOrGaveUp(child: ChildProcess, stdin: string, limitMs: number): Promise<Finished & { gaveUp: boolean }> {
  let gaveUp = false;
  const timer = setTimeout(() => {
    gaveUp = true;
    child.kill('SIGKILL');
  }, limitMs);
  child.stdin?.end(stdin);
  try {
    return { ...(await finished(child)), gaveUp };
  } finally {
    clearTimeout(timer);
  }
}

/** The JSON objects an agent's `--json` mode printed, one per line; other lines (logs) are skipped. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Resolves when the child's stdout contains `text`; rejects if it exits first. */
export function waitForOutput(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes(text)) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing ${text}`)));
  });
}
