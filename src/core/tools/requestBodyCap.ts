import { MAX_CONTENT_CHARS } from './toolInput';

/**
 * JSON's worst case for one character as JSON Schema counts it: a code point beyond the BMP written as two
 * `\uXXXX` escapes (6 bytes per UTF-16 unit), which a client that escapes all non-ASCII text sends.
 */
const WORST_JSON_BYTES_PER_CHAR = 12;
/** Everything around the content: the JSON-RPC envelope, a path of up to 4096 characters, a hook's own fields. */
const BODY_HEADROOM_BYTES = 1024 * 1024;

/** The body cap that lets in any call whose largest argument has `maxContentChars` characters, however escaped. */
export function bodyCapFor(maxContentChars: number): number {
  return maxContentChars * WORST_JSON_BYTES_PER_CHAR + BODY_HEADROOM_BYTES;
}

/**
 * The cap on the request bodies of the HTTP doors that carry governed calls (POST /mcp, POST /hook, each route's
 * `maxBodyBytes` on the local server): derived, never set apart from the schema.
 */
export const MAX_REQUEST_BODY_BYTES = bodyCapFor(MAX_CONTENT_CHARS);
