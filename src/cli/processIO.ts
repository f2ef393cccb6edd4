import type { CliIO } from './cliCommand';

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

/** The real process's streams, directory and environment, as every entry point hands them to a command. */
export function processIO(): CliIO {
  return { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text), readStdin, cwd: process.cwd(), env: process.env };
}
