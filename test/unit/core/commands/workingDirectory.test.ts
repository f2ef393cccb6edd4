import { strict as assert } from 'node:assert';
import { changeDirectory, compose, directoriesOf, enter, resolveIn, STARTING_PLACES, type Places } from '../../../../src/core/commands/workingDirectory';
import type { ShellWord } from '../../../../src/core/commands/shellWords';

const argv = (...texts: string[]): ShellWord[] => texts.map((text) => ({ text, dynamic: text.startsWith('$') }));

/** The directories after running these builtins one after another, each succeeding. */
function after(...commands: string[][]): readonly string[] | null {
  let places: Places = STARTING_PLACES;
  for (const command of commands) places = changeDirectory(places, argv(...command), false).ok;
  return directoriesOf(places);
}

describe('workingDirectory', () => {
  it('follows cd through relative, absolute and home paths', () => {
    assert.deepEqual(after(['cd', 'src'], ['cd', 'auth']), ['src/auth']);
    assert.deepEqual(after(['cd', 'src'], ['cd', '..']), ['']);
    assert.deepEqual(after(['cd', '..']), ['..']);
    assert.deepEqual(after(['cd', '/tmp/x/']), ['/tmp/x']);
    assert.deepEqual(after(['cd']), ['~']);
    assert.deepEqual(after(['cd', '-P', '--', 'src']), ['src']);
  });

  it('follows cd -, pushd and popd with the state they keep', () => {
    assert.deepEqual(after(['cd', 'a'], ['cd', 'b'], ['cd', '-']), ['a']);
    assert.deepEqual(after(['pushd', 'a'], ['pushd', 'b'], ['popd']), ['a']);
    assert.deepEqual(after(['pushd', 'a'], ['pushd']), ['']);
  });

  it('gives up where the text cannot say where the shell goes', () => {
    assert.equal(after(['cd', '$DIR']), null);
    assert.equal(after(['cd', 'src*']), null);
    assert.equal(after(['cd', 'a', 'b']), null);
    assert.equal(after(['cd', '-']), null);
    assert.equal(after(['popd']), null);
    assert.equal(after(['pushd', '+1']), null);
    assert.equal(directoriesOf(changeDirectory(STARTING_PLACES, argv('cd', 'src'), true).ok), null, 'CDPATH in play');
    assert.deepEqual(directoriesOf(changeDirectory(STARTING_PLACES, argv('cd', './src'), true).ok), ['src'], 'CDPATH is not used for ./');
  });

  it('leaves the shell where it was when cd fails', () => {
    assert.deepEqual(directoriesOf(changeDirectory(STARTING_PLACES, argv('cd', 'src'), false).fail), ['']);
  });

  it('places relative paths in every directory the shell may be in', () => {
    assert.deepEqual(resolveIn(['', 'src'], 'out/'), ['out/', 'src/out/']);
    assert.deepEqual(resolveIn(['src'], '../x'), ['x']);
    assert.deepEqual(resolveIn(null, '/abs'), ['/abs']);
    assert.equal(resolveIn(null, 'rel'), null);
    assert.deepEqual(resolveIn(['~'], 'x'), ['~/x']);
    assert.equal(enter('~', '../x'), null, 'the parent of ~ is only known on the machine');
  });

  it('composes a nested shell with where it was started', () => {
    assert.deepEqual(compose(['src'], ['', 'auth']), ['src', 'src/auth']);
    assert.equal(compose(null, ['']), null);
  });
});
