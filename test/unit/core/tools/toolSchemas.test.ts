import { strict as assert } from 'node:assert';
import Ajv from 'ajv';
import { TOOLS } from '../../../../src/core/tools/toolRegistry';

// Input validation skips the meta-schema check at run time for speed; this is where it happens instead.
describe('tool schemas', () => {
  const ajv = new Ajv({ strict: true });
  for (const tool of Object.values(TOOLS)) {
    it(`${tool.name}: its input schema is a valid JSON schema that compiles in strict mode`, () => {
      assert.equal(ajv.validateSchema(tool.inputSchema), true, JSON.stringify(ajv.errors));
      assert.doesNotThrow(() => ajv.compile(tool.inputSchema));
    });
  }
});
