import { strict as assert } from 'node:assert';
import { validateInput } from '../../../../src/core/tools/inputValidation';
import { bodyCapFor, MAX_REQUEST_BODY_BYTES } from '../../../../src/core/tools/requestBodyCap';
import { MAX_CONTENT_CHARS } from '../../../../src/core/tools/toolInput';
import { writeFile } from '../../../../src/core/tools/writeFile';

describe('the body cap, derived from the largest tool argument', () => {
  /** Every non-ASCII character as `\uXXXX` (astral ones as a surrogate pair), the way an ensure-ASCII encoder writes it. */
  const asciiOnlyJson = (value: unknown) => JSON.stringify(value).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

  it('fits a write_file call with the most characters the schema allows, in the worst escaping JSON has', () => {
    // Large enough that the headroom alone could not hide a wrong bytes-per-character factor.
    const chars = 200_000;
    const call = (content: string, path: string) => ({
      jsonrpc: '2.0',
      id: Number.MAX_SAFE_INTEGER,
      method: 'tools/call',
      params: { name: 'write_file', arguments: { path, content, expected_content_hash: `sha256:${'0'.repeat(64)}` }, _meta: { progressToken: Number.MAX_SAFE_INTEGER } },
    });
    const astral = '\u{1F600}'.repeat(chars); // one character to JSON Schema, twelve bytes escaped
    const longestPath = `${'\u{1F600}'.repeat(4095)}a`;
    const body = asciiOnlyJson(call(astral, longestPath));
    assert.equal(body.length, Buffer.byteLength(body), 'the body is pure ASCII');
    assert.ok(body.length <= bodyCapFor(chars), `${body.length} bytes over the cap ${bodyCapFor(chars)}`);
    assert.deepEqual(JSON.parse(body), call(astral, longestPath), 'the escaping is lossless');
  });

  it('is the cap the HTTP doors use, for the same limit the write_file schema enforces', () => {
    assert.equal(MAX_REQUEST_BODY_BYTES, bodyCapFor(MAX_CONTENT_CHARS));
    const content = (writeFile.inputSchema.properties as Record<string, { maxLength?: number }>).content;
    assert.equal(content.maxLength, MAX_CONTENT_CHARS);
    assert.equal(validateInput(writeFile, { path: 'a.ts', content: 'x'.repeat(MAX_CONTENT_CHARS) }).ok, true, 'the generated validator takes the largest content');
    assert.equal(validateInput(writeFile, { path: 'a.ts', content: 'x'.repeat(MAX_CONTENT_CHARS + 1) }).ok, false, 'and refuses one character more');
  });
});
