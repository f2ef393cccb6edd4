import { strict as assert } from 'node:assert';
import { conditionMatches, conditionProblem, type ConditionSubject } from '../../../../src/core/userHooks/hookCondition';

const bash = (command: string): ConditionSubject => ({ toolNames: ['Bash', 'run_command'], command, kind: 'command' });
const runCommand = (command: string): ConditionSubject => ({ toolNames: ['run_command'], command, kind: 'command' });
const write = (path: string, names = ['Write', 'write_file']): ConditionSubject => ({ toolNames: names, path, kind: 'write' });
const edit = (path: string): ConditionSubject => ({ toolNames: ['Edit', 'edit_file'], path, kind: 'write' });
const read = (path: string): ConditionSubject => ({ toolNames: ['Read', 'read_file'], path, kind: 'read' });

describe("hookCondition: the `if` field in Claude Code's permission-rule syntax", () => {
  const table: [rule: string, subject: ConditionSubject, expected: boolean][] = [
    // the tool part alone
    ['Bash', bash('ls'), true],
    ['Bash', write('a.ts'), false],
    ['run_command', bash('ls'), true],
    ['Write', write('a.ts'), true],
    ['write_file', write('a.ts'), true],
    ['Bash(*)', bash('anything at all'), true],
    // Edit covers every file-changing call, Read every read, Bash every command (as in Claude Code)
    ['Edit', write('a.ts'), true],
    ['Edit', write('a.ts', ['create_file']), true],
    ['Edit', read('a.ts'), false],
    ['Read', read('a.ts'), true],
    ['Read', write('a.ts'), false],
    ['Bash(git push:*)', runCommand('git push origin main'), true],
    // Bash specs: `prefix:*` is a prefix of whole words
    ['Bash(git:*)', bash('git status'), true],
    ['Bash(git:*)', bash('git'), true],
    ['Bash(git:*)', bash('gitk --all'), false],
    ['Bash(git push:*)', bash('git push origin main'), true],
    ['Bash(git push:*)', bash('git pull'), false],
    ['Bash(git push:*)', bash('git pushx'), false],
    // ... in any command of a compound line, after assignments and wrappers, and inside $( )
    ['Bash(git push:*)', bash('npm test && git push'), true],
    ['Bash(git push:*)', bash('echo start; git push -f | tee log'), true],
    ['Bash(git push:*)', bash('GIT_TRACE=1 git push'), true],
    ['Bash(git push:*)', bash('sudo -u me git push'), true],
    ['Bash(git push:*)', bash('timeout 30 git push'), true],
    ['Bash(git push:*)', bash('env -i A=1 git push'), true],
    ['Bash(git push:*)', bash('bash -c "git push origin"'), true],
    ['Bash(git push:*)', bash('echo $(git push)'), true],
    ['Bash(git push:*)', bash('echo "git push"'), false],
    // what cannot be read off the text runs the hook (fail closed)
    ['Bash(git push:*)', bash('eval "$CMD"'), true],
    ['Bash(git push:*)', bash('$GIT push'), true],
    ['Bash(git push:*)', bash('echo "unterminated'), true],
    // a trailing ` *` is a word prefix too, the command alone included
    ['Bash(git push *)', bash('git push origin'), true],
    ['Bash(git push *)', bash('git push'), true],
    ['Bash(ls *)', bash('lsof'), false],
    ['Bash(ls*)', bash('lsof'), true],
    // `*` elsewhere: a glob over the command
    ['Bash(git * main)', bash('git push origin main'), true],
    ['Bash(git * main)', bash('git push origin dev'), false],
    ['Bash(npm run test*)', bash('npm run test:unit'), true],
    // no `*`: the exact command
    ['Bash(npm test)', bash('npm test'), true],
    ['Bash(npm test)', bash('npm test --watch'), false],
    ['Bash(git commit -m "fix")', bash('git commit -m "fix"'), true],
    // file specs: gitignore-style, relative to the workspace root
    ['Write(src/**)', write('src/auth/a.ts'), true],
    ['Write(src/**)', write('lib/src/a.ts'), false],
    ['Write(src/**)', write('README.md'), false],
    ['Edit(*.ts)', edit('a.ts'), true],
    ['Edit(*.ts)', edit('src/deep/b.ts'), true],
    ['Edit(*.ts)', edit('src/b.tsx'), false],
    ['Edit(*.ts)', write('src/c.ts'), true],
    ['Edit(/src/*.ts)', edit('src/c.ts'), true],
    ['Edit(/src/*.ts)', edit('src/d/c.ts'), false],
    ['Edit(./src/*.ts)', edit('src/c.ts'), true],
    ['Edit(.env*)', edit('config/.env.local'), true],
    ['Edit(node_modules)', edit('pkg/node_modules/x/index.js'), true],
    ['Edit(docs/)', edit('docs/guide/a.md'), true],
    ['Read(secrets/**)', read('secrets/key.pem'), true],
    ['Read(secrets/**)', write('secrets/key.pem'), false],
    // a rule that cannot be checked against this call does not match
    ['Bash(git:*)', { toolNames: ['Bash'], kind: 'command' }, false],
    ['Write(src/**)', { toolNames: ['Write'], kind: 'write' }, false],
    ['WebFetch(domain:example.com)', { toolNames: ['WebFetch'], kind: 'other' }, false],
    ['Write(src/**)', write('../outside/src/a.ts'), false],
  ];
  for (const [rule, subject, expected] of table) {
    const what = subject.command ?? subject.path ?? '(nothing)';
    it(`${rule} ${expected ? 'matches' : 'does not match'} ${subject.toolNames.join('/')} ${what}`, () => {
      assert.equal(conditionMatches(rule, subject), expected);
    });
  }

  it('accepts the rules users write and says what is wrong with the others, and what to write instead', () => {
    for (const rule of ['Bash', 'Bash(git push:*)', 'Write(src/**)', 'Edit(*.ts)', 'mcp__github__create_issue', 'WebFetch(domain:example.com)', 'Read(./.env)']) {
      assert.equal(conditionProblem(rule), undefined, rule);
    }
    assert.equal(conditionProblem(''), `"if" is empty; write a permission rule such as "Bash(git push:*)" or "Edit(src/**)", or leave "if" out`);
    assert.equal(conditionProblem('git push'), `"if" 'git push' is not a permission rule; write Tool or Tool(pattern), e.g. "Bash(git push:*)" or "Write(src/**)"`);
    assert.equal(conditionProblem('Bash(git push'), `"if" 'Bash(git push' is not a permission rule; write Tool or Tool(pattern), e.g. "Bash(git push:*)" or "Write(src/**)"`);
    assert.equal(conditionProblem('Bash()'), `"if" 'Bash()' has an empty pattern; write "Bash" for every call, or a pattern such as "Bash(git push:*)"`);
    assert.equal(conditionProblem('Edit(~/.bashrc)'), `"if" 'Edit(~/.bashrc)': paths in "if" are relative to the workspace root; write a workspace pattern such as "Edit(src/**)"`);
    assert.equal(conditionProblem('Edit(//etc/**)'), `"if" 'Edit(//etc/**)': paths in "if" are relative to the workspace root; write a workspace pattern such as "Edit(src/**)"`);
    assert.equal(conditionProblem('Write(!src/**)'), `"if" 'Write(!src/**)': a negated pattern cannot be a condition; name the files the hook is for, e.g. "Write(src/**)"`);
  });

  it('a rule with a problem matches nothing rather than throwing', () => {
    assert.equal(conditionMatches('Bash(git', bash('git status')), false);
  });
});
