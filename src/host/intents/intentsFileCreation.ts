import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { INTENTS_FILE_RELATIVE } from '../../core/intents/fileIntentSource';
import { INTENTS_TEMPLATE } from './intentsTemplate';

/**
 * Writes the commented template at `path` unless a file is already there ('wx' never replaces one someone created
 * a moment ago). Returns whether it created the file, or a message saying what failed and what to check.
 */
export async function createIntentsFileIfMissing(path: string): Promise<{ created: boolean } | { error: string }> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, INTENTS_TEMPLATE, { flag: 'wx' });
    return { created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { created: false };
    const detail = error instanceof Error ? error.message : String(error);
    return { error: `Could not create ${INTENTS_FILE_RELATIVE} (${detail}); check the folder's permissions.` };
  }
}
