// Child process for the hook-session tests: an agent that runs its hook command as agents do (`sh -c '<command>'`),
// once per payload. `<command> <payload>...`: each payload goes to the hook's stdin; it prints "hooked <exit code>"
// per call, then "ready", and stays up until it is killed (an agent killed without sending SessionEnd).
import { spawn } from 'node:child_process';

function hook(command: string, payload: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
    child.stdin.on('error', () => undefined);
    child.stdin.end(payload);
  });
}

async function main(): Promise<void> {
  const [command, ...payloads] = process.argv.slice(2);
  for (const payload of payloads) process.stdout.write(`hooked ${await hook(command, payload)}\n`);
  process.stdout.write('ready\n');
  setInterval(() => undefined, 60_000);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
