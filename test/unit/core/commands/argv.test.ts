import { strict as assert } from 'node:assert';
import { hasOption, mayHaveOption, optionValues, parseArgs, type ArgSpec } from '../../../../src/core/commands/argv';
import type { ShellWord } from '../../../../src/core/commands/shellSyntax';

const words = (...texts: string[]): ShellWord[] => texts.map((text) => ({ text, dynamic: text.startsWith('$') }));

function parse(spec: ArgSpec, ...texts: string[]) {
  const parsed = parseArgs(words(...texts), spec);
  return { ...parsed, operands: parsed.operands.map((w) => w.text), rest: parsed.rest.map((w) => w.text) };
}

describe('argv', () => {
  it('splits clusters and finds options anywhere, GNU style', () => {
    const parsed = parse({}, 'a', '-rf', 'b', '--force');
    assert.deepEqual(parsed.options.map((o) => o.name), ['r', 'f', 'force']);
    assert.deepEqual(parsed.operands, ['a', 'b']);
  });

  it('takes option values attached, separate, or after =', () => {
    const parsed = parseArgs(words('-n5', '-o', 'out', '--output=x', '--target-directory', 'dir'), { valued: ['n', 'o', 'output', 'target-directory'] });
    assert.deepEqual(optionValues(parsed, 'n', 'o', 'output', 'target-directory').map((w) => w.text), ['5', 'out', 'x', 'dir']);
  });

  it('treats everything after -- as operands, even if it looks like an option', () => {
    assert.deepEqual(parse({}, '--', '-rf').operands, ['-rf']);
  });

  it('stops at the first operand for wrappers, keeping the wrapped command whole', () => {
    assert.deepEqual(parse({ stopAtOperand: true, valued: ['n'] }, '-n', '5', 'rm', '-rf', 'x').rest, ['rm', '-rf', 'x']);
  });

  it('reads optional attached values only from the same word (sed -i.bak, sed -i file)', () => {
    const attached = parseArgs(words('-i.bak', 'file'), { attached: ['i'] });
    assert.deepEqual(optionValues(attached, 'i').map((w) => w.text), ['.bak']);
    assert.deepEqual(parseArgs(words('-i', 'file'), { attached: ['i'] }).operands.map((w) => w.text), ['file']);
  });

  it('marks arguments only known at run time as possibly any option', () => {
    assert.equal(parse({}, '$OPTS', 'file').opaque, true);
    assert.equal(parse({}, '-v', 'file').opaque, false);
  });

  it('matches abbreviated long options only where matching too much is safe', () => {
    const parsed = parseArgs(words('--rec', '--no-pres'));
    assert.equal(hasOption(parsed, 'recursive'), false);
    assert.equal(mayHaveOption(parsed, 'recursive'), true);
    assert.equal(mayHaveOption(parsed, 'no-preserve-root'), true);
  });

  describe('long options in every spelling getopt_long accepts', () => {
    const spec: ArgSpec = { valued: ['o', 'output', 'open-files-in-pager'], flags: ['outline', 'open'] };

    it('resolves an unambiguous prefix to the option it abbreviates, with = or a separate value', () => {
      for (const args of [['--outp=/abs/f'], ['--outp', '/abs/f'], ['--output', '/abs/f'], ['--output=/abs/f'], ['-o/abs/f'], ['-o', '/abs/f']]) {
        const parsed = parseArgs(words(...args), spec);
        assert.deepEqual(optionValues(parsed, 'output', 'o').map((w) => w.text), ['/abs/f'], args.join(' '));
        assert.deepEqual(parsed.operands, [], args.join(' '));
      }
    });

    it('an exact name wins over longer names it is a prefix of', () => {
      const parsed = parseArgs(words('--open', 'x'), spec);
      assert.deepEqual(parsed.options.map((o) => o.name), ['open']);
      assert.deepEqual(parsed.operands.map((w) => w.text), ['x']);
    });

    it('keeps an ambiguous prefix as written, so deny-side checks still see every option it could be', () => {
      const parsed = parseArgs(words('--out', 'x'), spec);
      assert.deepEqual(parsed.options.map((o) => o.name), ['out']);
      assert.equal(mayHaveOption(parsed, 'output'), true);
      assert.equal(mayHaveOption(parsed, 'outline'), true);
    });

    it('gives an ambiguous prefix the value any option it could be takes (older versions know fewer options)', () => {
      const parsed = parseArgs(words('--out', '/abs/f', 'x'), spec);
      assert.deepEqual(optionValues(parsed, 'output').map((w) => w.text), ['/abs/f']);
      assert.deepEqual(parsed.operands.map((w) => w.text), ['x']);
    });

    it('reads an optional value only after = (git grep --open-files-in-pager[=<pager>])', () => {
      const parsed = parseArgs(words('--open-files=touch x', 'pattern'), { optional: ['open-files-in-pager'], flags: ['or', 'only-matching'] });
      assert.deepEqual(optionValues(parsed, 'open-files-in-pager').map((w) => w.text), ['touch x']);
      assert.deepEqual(parsed.operands.map((w) => w.text), ['pattern']);
    });
  });
});
