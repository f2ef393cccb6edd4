import { readdirSync, readFileSync } from 'node:fs';

/**
 * Whether a confined command planned with this private temp folder is still running: a process whose command line
 * names it (bubblewrap's, with the folder in its mounts). An agent's background shell (Claude Code's
 * `run_in_background`, Gemini CLI's `is_background`) sends the post as it starts the command, so what the command
 * writes comes later: its record waits until no such process is left. Linux reads /proc; elsewhere nothing is known
 * to run (the post records at once, as before).
 */
export function confinedCommandRunning(tempDir: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux' || tempDir === '') return false;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return false;
  }
  // Words of a command line are NUL-separated: the folder as one bind argument of its own, never a substring.
  const word = Buffer.from(`\0${tempDir}\0`);
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    let cmdline: Buffer;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`);
    } catch {
      continue; // gone since the listing, or not ours to read
    }
    if (cmdline.includes(word)) return true;
  }
  return false;
}
