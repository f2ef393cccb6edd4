import { strict as assert } from 'node:assert';
import { HookStatusBar, type StatusItem } from '../../../../src/host/agents/hookStatusBar';

/** A status bar item that remembers what a user would see. */
function fakeItem() {
  const item = {
    text: '',
    tooltip: undefined as StatusItem['tooltip'],
    visible: false,
    disposed: false,
    show() {
      item.visible = true;
    },
    hide() {
      item.visible = false;
    },
    dispose() {
      item.disposed = true;
    },
  };
  return item;
}

describe('hook status bar (statusMessage)', () => {
  it('shows a spinning message while a hook runs and hides it when the hook ends', () => {
    const item = fakeItem();
    const bar = new HookStatusBar(item);
    assert.equal(item.visible, false);
    const running = bar.show('Checking for secrets…');
    assert.equal(item.visible, true);
    assert.equal(bar.text, '$(sync~spin) Checking for secrets…');
    running.dispose();
    assert.equal(item.visible, false);
    assert.equal(bar.text, '');
  });

  it('stacks concurrent hooks: the newest with a count, all in the tooltip, the others again as each ends', () => {
    const item = fakeItem();
    const bar = new HookStatusBar(item);
    const lint = bar.show('Linting');
    const secrets = bar.show('Checking for secrets');
    const again = bar.show('Checking for secrets');
    assert.equal(bar.text, '$(sync~spin) Checking for secrets (+2)');
    assert.equal(item.tooltip, 'Intent Governor hooks running:\n• Linting\n• Checking for secrets\n• Checking for secrets');
    again.dispose();
    again.dispose(); // ending twice ends only itself, once
    assert.equal(bar.text, '$(sync~spin) Checking for secrets (+1)');
    secrets.dispose();
    assert.equal(bar.text, '$(sync~spin) Linting');
    assert.equal(item.visible, true);
    lint.dispose();
    assert.equal(item.visible, false);
  });

  it('keeps a message to one short line', () => {
    const bar = new HookStatusBar(fakeItem());
    bar.show(`Checking\nfor   secrets ${'x'.repeat(200)}`);
    assert.match(bar.text, /^\$\(sync~spin\) Checking for secrets x+…$/);
    assert.ok(bar.text.length < 100, bar.text);
  });

  it('does nothing after it is disposed (a hook ending during shutdown)', () => {
    const item = fakeItem();
    const bar = new HookStatusBar(item);
    const running = bar.show('Linting');
    bar.dispose();
    assert.equal(item.disposed, true);
    running.dispose();
    bar.show('late').dispose();
  });
});
