import { strict as assert } from 'node:assert';
import { createHarness, type Harness } from '../../../support/governorHarness';

const CART = 'function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}\nmodule.exports = { total };\n';

describe('mutation events: the change class of what an agent changed by itself', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ files: { 'src/auth/cart.js': CART } });
    await h.bound('list_intents', {});
  });
  afterEach(() => h.dispose());

  const native = (path: string, before: string | undefined, after: string | undefined) =>
    h.governor.run({ tool: 'write_file', input: { path, content: after ?? '' }, session_id: 's1', agent: { name: 'claude-code' } }, { mode: 'record', output: { data: { path }, changes: [{ path, before, after }] } });

  it("classifies a native tool's change when it is recorded: a rename is a refactoring", async () => {
    await native('src/auth/cart.js', CART, CART.replace(/sum/g, 'acc'));
    const event = h.trace.mutations.at(-1);
    assert.deepEqual([event?.mutation_class, event?.change_class?.class, event?.change_class?.rule], ['write', 'AST_REFACTOR', 'syntax-tree']);
  });

  it('a native change that alters behaviour is evolution, with the reason', async () => {
    await native('src/auth/cart.js', CART, CART.replace('item.price', 'item.price * item.quantity'));
    const event = h.trace.mutations.at(-1);
    assert.equal(event?.change_class?.class, 'INTENT_EVOLUTION');
    assert.match(String(event?.change_class?.reason), /changes `total`/);
  });
});
