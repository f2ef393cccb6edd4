import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { parseShell, type ShellParse, type SimpleCommand } from '../../../../src/core/commands/shellSyntax';

function parsed(command: string): Extract<ShellParse, { ok: true }> {
  const result = parseShell(command);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result;
}

function argvs(command: string): string[][] {
  return parsed(command).commands.map((c) => c.argv.map((w) => w.text));
}

describe('shellSyntax', () => {
  describe('collects every simple command the line would run', () => {
    const cases: [string, string[][]][] = [
      ['ls -la && rm -rf build', [['ls', '-la'], ['rm', '-rf', 'build']]],
      ['true || rm x; pwd', [['true'], ['rm', 'x'], ['pwd']]],
      ['a | b |& c', [['a'], ['b'], ['c']]],
      ['a & b', [['a'], ['b']]],
      ['(cd x; make) && { ls; pwd; }', [['cd', 'x'], ['make'], ['ls'], ['pwd']]],
      ['if a; then b; elif c; then d; else e; fi', [['a'], ['b'], ['c'], ['d'], ['e']]],
      ['while f; do g; done; until h; do i; done', [['f'], ['g'], ['h'], ['i']]],
      ['for x in 1 2; do j "$x"; done; for ((n=0; n<2; n++)); do k; done', [['j', '$x'], ['k']]],
      ['case $x in a) l;; *) m;; esac', [['l'], ['m']]],
      ['time ls; ! grep x f; coproc cat', [['ls'], ['grep', 'x', 'f'], ['cat']]],
      ['echo $(rm -rf x)', [['rm', '-rf', 'x'], ['echo', '$(rm -rf x)']]],
      ['echo "in quotes $(rm a)" `rm b`', [['rm', 'a'], ['rm', 'b'], ['echo', 'in quotes $(rm a)', '`rm b`']]],
      ['[[ -n $(rm c) ]]', [['rm', 'c']]],
      ['x=$(rm d)', [['rm', 'd'], []]],
      ['ls > $(rm e)', [['rm', 'e'], ['ls']]],
      ["cat <<'EOF'\nrm -rf /\nEOF", [['cat']]],
      ['cat <<EOF\n$(rm f)\nEOF', [['rm', 'f'], ['cat']]],
      ['f() { rm g; }', [['rm', 'g']]],
    ];
    for (const [command, expected] of cases) {
      it(JSON.stringify(command), () => assert.deepEqual(argvs(command), expected));
    }
  });

  describe('words after quote removal', () => {
    const cases: [string, string[]][] = [
      [`echo "a b" 'c d' e\\ f "x\\$y" 'x\\y' "q\\z"`, ['echo', 'a b', 'c d', 'e f', 'x$y', 'x\\y', 'q\\z']],
      ['r\\m -r""f /', ['rm', '-rf', '/']],
      ['echo héllo "wörld"', ['echo', 'héllo', 'wörld']],
      ['echo a{b,c}d {1..3} {a..c} {08..10}', ['echo', 'abd', 'acd', '1', '2', '3', 'a', 'b', 'c', '08', '09', '10']],
      ['mkdir -p src/{a,b{1,2}}', ['mkdir', '-p', 'src/a', 'src/b1', 'src/b2']],
      ['echo \\{a,b\\} "{c,d}" {x} x{,}', ['echo', '{a,b}', '{c,d}', '{x}', 'x', 'x']],
      ['rm -rf {,}', ['rm', '-rf']],
      ['find . -exec rm {} \\;', ['find', '.', '-exec', 'rm', '{}', ';']],
    ];
    for (const [command, expected] of cases) {
      it(JSON.stringify(command), () => assert.deepEqual(argvs(command)[0], expected));
    }

    it('marks words whose value is only known at run time, and leaves globs and ~ literal', () => {
      const cmd = parsed('echo $HOME "${X}y" $((1+2)) $\'\\n\' *.ts ~/a @(x|y) "$(date)"').commands.at(-1) as SimpleCommand;
      assert.deepEqual(
        cmd.argv.map((w) => [w.text, w.dynamic]),
        [['echo', false], ['$HOME', true], ['${X}y', true], ['$((1+2))', true], ["$'\\n'", true], ['*.ts', false], ['~/a', false], ['@(x|y)', false], ['$(date)', true]],
      );
    });

    it('gives up on a brace expansion too large to be a real command', () => {
      const [cmd] = parsed('touch {1..100000}').commands;
      assert.deepEqual(cmd.argv[1], { text: '{1..100000}', dynamic: true });
    });
  });

  describe('reports what makes a command unknowable', () => {
    const cases: [string, string[]][] = [
      ['ls -la', []],
      ['echo $HOME', []],
      ['echo $(whoami)', ['command substitution $(…)']],
      ['echo `whoami`', ['backticks']],
      ['$CMD arg', ['$VAR in command position']],
      ['"${TOOL}" arg', ['$VAR in command position']],
      ["$'\\x72m' -rf x", ["ANSI-C quoting $'…'"]],
      ['diff <(ls a) >(cat)', ['process substitution']],
      ['f() { ls; }', ['function definition']],
      ['eval "$x"', ['eval']],
      ['source env.sh; . env.sh', ['source']],
    ];
    for (const [command, expected] of cases) {
      it(JSON.stringify(command), () => assert.deepEqual(parsed(command).dynamic, expected));
    }
  });

  describe('redirects', () => {
    it('keeps operator, target and fd for every kind', () => {
      const [cmd] = parsed('c > out 2>&1 >> app < in 3<> rw &> all &>> all2 >| clob <<< str 4<&0 >&-').commands;
      assert.deepEqual(
        cmd.redirects.map((r) => [r.op, r.target.text, r.fd ?? '']),
        [['>', 'out', ''], ['>&', '1', '2'], ['>>', 'app', ''], ['<', 'in', ''], ['<>', 'rw', '3'], ['&>', 'all', ''], ['&>>', 'all2', ''], ['>|', 'clob', ''], ['<<<', 'str', ''], ['<&', '0', '4'], ['>&', '-', '']],
      );
    });

    it('keeps a heredoc body as data: literal when the delimiter is quoted, dynamic when it expands', () => {
      const quoted = parsed("cat <<'EOF' > out.txt\nhello $x \\$y\nEOF").commands[0];
      assert.deepEqual(quoted.redirects[0].heredoc, { text: 'hello $x \\$y\n', dynamic: false });
      assert.deepEqual(quoted.redirects[1], { op: '>', target: { text: 'out.txt', dynamic: false } });
      const expanding = parsed('cat <<EOF\nhello $x \\$y\nEOF').commands[0];
      assert.deepEqual(expanding.redirects[0].heredoc, { text: 'hello $x $y\n', dynamic: true });
    });

    it('gives a compound command its own entry carrying its redirects', () => {
      const commands = parsed('{ a; b; } > f').commands;
      assert.deepEqual(commands.map((c) => c.argv.map((w) => w.text)), [['a'], ['b'], []]);
      assert.equal(commands[2].redirects[0].target.text, 'f');
    });
  });

  describe('placement of each command', () => {
    function field<K extends keyof SimpleCommand>(command: string, key: K): SimpleCommand[K][] {
      return parsed(command).commands.map((c) => c[key]);
    }

    it('records which commands feed a pipe, including everything left of it', () => {
      assert.deepEqual(field('a | b | c; d', 'pipedFrom'), [[], [0], [0, 1], []]);
      assert.deepEqual(field('(a; b) | c', 'pipedFrom'), [[], [], [0, 1]]);
    });

    it('records commands whose output is substituted into the words', () => {
      assert.deepEqual(field('echo $(a) `b` | c', 'substitutions'), [[], [], [0, 1], []]);
    });

    it('records background commands, including inside a backgrounded group', () => {
      assert.deepEqual(field('a & b; { c; d; } &', 'background'), [true, false, true, true]);
    });

    it('records assignments, including those of export and declare', () => {
      const texts = (command: string) => field(command, 'assignments').map((list) => list.map((a) => a.text));
      assert.deepEqual(texts('A=1 B+=2 cmd'), [['A=1', 'B+=2']]);
      assert.deepEqual(argvs('export X=1 Y'), [['export', 'Y']]);
      assert.deepEqual(texts('export X=1 Y'), [['X=1']]);
      assert.deepEqual(field('A=$X cmd', 'assignments').map((list) => list.map((a) => a.dynamic)), [[true]]);
    });

    it('records where each command runs after the cds before it', () => {
      assert.deepEqual(field('cd a && b; c', 'directories'), [[''], ['a'], ['a', '']]);
      assert.deepEqual(field('cd a || b', 'directories'), [[''], ['']]);
      assert.deepEqual(field('(cd a; b); c', 'directories'), [[''], ['a', ''], ['']]);
      assert.deepEqual(field('echo $(cd a && b) && c', 'directories'), [[''], ['a'], [''], ['']]);
      assert.deepEqual(field('cd $X && b', 'directories'), [[''], null]);
      assert.deepEqual(field('while x; do cd a; done; b', 'directories'), [null, null, null]);
    });

    it('records the enclosing function, which is how a fork bomb is recognised', () => {
      assert.deepEqual(field(':(){ :|:& };:', 'inFunction'), [':', ':', undefined]);
    });
  });

  describe('errors are values with line and column', () => {
    const cases: [string, RegExp][] = [
      ['if then (', /^1:1: /],
      ["echo 'unterminated", /^1:6: .*quote/],
      ['ls &&', /^1:4: /],
      ['ls\n\nfi', /^3:1: /],
    ];
    for (const [command, pattern] of cases) {
      it(JSON.stringify(command), () => {
        const result = parseShell(command);
        assert.equal(result.ok, false);
        assert.match(result.ok ? '' : result.error, pattern);
      });
    }

    it('refuses a command too long to review', () => {
      const result = parseShell(`echo ${'x'.repeat(70_000)}`);
      assert.equal(result.ok, false);
    });

    it('refuses a NUL character, after which a shell would see nothing', () => {
      assert.equal(parseShell('ls\0rm -rf /').ok, false);
    });

    it('returns an error instead of throwing on absurd nesting', () => {
      assert.equal(parseShell(`echo ${'$('.repeat(3000)}ls${')'.repeat(3000)}`).ok, false);
    });
  });

  it('does not load the parser until the first parse (it costs ~150 ms at activation)', () => {
    const probe = [
      "require('./src/core/commands/shellSyntax');",
      "const loaded = () => Object.keys(require.cache).some((k) => k.includes('mvdan-sh'));",
      'const before = loaded();',
      "require('./src/core/commands/shellSyntax').parseShell('ls');",
      'console.log(JSON.stringify([before, loaded()]));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', probe], { cwd: process.cwd(), encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out.trim()), [false, true]);
  });
});
