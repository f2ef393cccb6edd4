import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storeIn } from '../paths/userStores';

/**
 * A program the sandbox is started with (the seccomp filter, the write gate) as a file in the governor's home, which
 * the command cannot see: written once (a rename, so no process reads half of it), rewritten only when it differs.
 */
export async function sandboxProgramFile(home: string, name: string, program: Buffer, mode: number): Promise<string> {
  const dir = storeIn(home, 'sandbox');
  const file = join(dir, name);
  const existing = await readFile(file).catch(() => undefined);
  if (existing?.equals(program)) return file;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, program, { mode });
  await chmod(temp, mode);
  await rename(temp, file);
  return file;
}
