import { rm } from 'node:fs/promises';

/**
 * Removes a test's temporary workspace or governor home. A hook process that recorded a change leaves a
 * detached intent-map worker behind, which may still be writing there: rm's retries ride out its last write.
 */
export function removeTree(path: string): Promise<void> {
  return rm(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
