import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errnoOf } from '../ioError';
import { HOOK_CONFIG_FILES, installHookConfig, uninstallHookConfig, type HookAgent } from './hookConfig';

export type HookFileChange = { agent: HookAgent; file: string; action: 'written' | 'removed' | 'unchanged' } | { agent: HookAgent; file: string; action: 'failed'; message: string };

/** Applies the pure merger to the workspace's files (shared by the VS Code command and `governor hooks`). */
export async function applyHookConfig(root: string, agent: HookAgent, mode: 'install' | 'uninstall', cliPath: string): Promise<HookFileChange> {
  const file = join(root, HOOK_CONFIG_FILES[agent]);
  let existing: string | undefined;
  try {
    existing = await readFile(file, 'utf8');
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') return { agent, file, action: 'failed', message: `cannot read ${file} (${errnoOf(error) ?? String(error)})` };
  }
  const edit = mode === 'install' ? installHookConfig(agent, existing, cliPath) : uninstallHookConfig(agent, existing);
  if (!edit.ok) return { agent, file, action: 'failed', message: edit.message };
  if (edit.text === existing) return { agent, file, action: 'unchanged' };
  if (edit.text === null) {
    if (existing === undefined) return { agent, file, action: 'unchanged' };
    await unlink(file);
    return { agent, file, action: 'removed' };
  }
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, edit.text, 'utf8');
  await rename(temp, file);
  return { agent, file, action: 'written' };
}
