import { createInterface } from 'node:readline';
import type { CliIO } from './cliCommand';

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

/** One line from stdin; the reader lets go of stdin afterwards, so nothing more is consumed or waited on. */
function readLine(): Promise<string | undefined> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin, terminal: false });
    let answer: string | undefined;
    lines.once('line', (line) => {
      answer = line;
      lines.close();
    });
    lines.once('close', () => {
      process.stdin.pause();
      resolve(answer);
    });
  });
}

/** The real process's streams, directory and environment, as every entry point hands them to a command. */
export function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin,
    stdinIsTTY: process.stdin.isTTY === true,
    readLine,
    cwd: process.cwd(),
    env: process.env,
  };
}

/**
 * Sets the exit code and exits once stdout and stderr are flushed. A command is done when its promise
 * settles: a stdin the caller never closed (an agent's hook pipe) or any other leftover handle must not keep
 * the process, and so its answer, from the caller waiting on it.
 */
export function exitAfterOutput(code: number): void {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
