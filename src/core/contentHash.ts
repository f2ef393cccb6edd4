import { createHash } from 'node:crypto';

/**
 * `sha256:<hex>` of the bytes; strings are hashed as UTF-8. The one content hash agents pass back
 * (`expected_content_hash`), the optimistic lock compares and the write-ahead journal keeps.
 */
export function contentHash(data: Uint8Array | string): string {
  const hash = createHash('sha256');
  hash.update(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  return `sha256:${hash.digest('hex')}`;
}
