import { strict as assert } from 'node:assert';
import { analyzeCommand, type CommandVerdict } from '../../../../src/core/commands/commandPolicy';

const ROOT = { workspaceRoot: '/home/dev/project', homeDir: '/home/dev' };

/** [command, verdict, writeTargets (checked when given)] */
type Case = [string, CommandVerdict, string[]?];

function check(cases: Case[]): void {
  for (const [command, verdict, targets] of cases) {
    it(`${JSON.stringify(command)} is ${verdict}${targets ? ` writing ${JSON.stringify(targets)}` : ''}`, () => {
      const analysis = analyzeCommand(command, ROOT);
      assert.equal(analysis.verdict, verdict, analysis.reasons.join('\n'));
      if (targets) assert.deepEqual(analysis.writeTargets, targets);
    });
  }
}

describe('environmentRules: variables that make a program write or run code', () => {
  describe("git's trace family writes to the path in its value, however the variable is set", () => {
    check([
      ['GIT_TRACE=/abs/f git status', 'destructive', ['/abs/f']],
      ['export GIT_TRACE=/abs/f; git status', 'destructive', ['/abs/f']],
      ['env GIT_TRACE=/abs/f git status', 'destructive', ['/abs/f']],
      ['GIT_TRACE=/abs/f; export GIT_TRACE; git status', 'destructive', ['/abs/f']],
      ['declare -x GIT_TRACE2_EVENT=/abs/e && git status', 'destructive', ['/abs/e']],
      ['GIT_TRACE2_EVENT=/abs/f git status', 'destructive', ['/abs/f']],
      ['GIT_TRACE2=/abs/f GIT_TRACE2_PERF=/abs/p git status', 'destructive', ['/abs/f', '/abs/p']],
      ['GIT_TRACE_PACKET=/abs/f git status', 'destructive', ['/abs/f']],
      ['GIT_TRACE_PERFORMANCE=/abs/f git status', 'destructive', ['/abs/f']],
      ['GIT_TRACE_SETUP=/abs/f git status', 'destructive', ['/abs/f']],
      ['GIT_TRACE_CURL=/abs/f git status', 'destructive', ['/abs/f']],
      ['GIT_TRACE=trace.log git status', 'destructive', ['trace.log']],
      ['GIT_TRACE=~/t.log git status', 'destructive', ['/home/dev/t.log']],
    ]);
  });

  describe('trace values that only reach stderr or an open descriptor stay safe', () => {
    check([
      ['GIT_TRACE=1 git status', 'safe', []],
      ['GIT_TRACE=true git status', 'safe', []],
      ['GIT_TRACE=0 git status', 'safe', []],
      ['GIT_TRACE=2 git status', 'safe', []],
      ['GIT_TRACE= git status', 'safe', []],
      ['GIT_TRACE2_EVENT_NESTING=5 git status', 'safe', []],
      ['GIT_TRACE2_CONFIG_PARAMS=core.*,user.* git status', 'safe', []],
      ['GIT_TRACE=7 git status 7>/abs/t', 'destructive', ['/abs/t']],
    ]);
  });

  describe('values only known at run time, sockets, or variables set from input ask', () => {
    check([
      ['GIT_TRACE=$F git status', 'ask'],
      ['GIT_TRACE=af_unix:/tmp/sock git status', 'ask'],
      ['printf -v GIT_TRACE /abs/f; export GIT_TRACE; git status', 'ask'],
      ['read GIT_TRACE < name.txt; export GIT_TRACE; git status', 'ask'],
      ['export GIT_TRACE; git status', 'ask'],
    ]);
  });

  describe('variables that make a program run code or read configuration the agent wrote ask', () => {
    check([
      ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=id git log', 'ask'],
      ["GIT_CONFIG_PARAMETERS=\"'core.pager'='id'\" git log", 'ask'],
      ['GIT_PROXY_COMMAND=./evil git status', 'ask'],
      ['GIT_INDEX_FILE=x git status', 'ask'],
      ['XDG_CONFIG_HOME=src/auth/xdg git status', 'ask'],
      ['LESSOPEN="|./evil %s" git log', 'ask'],
      ['MANPAGER=./evil git log', 'ask'],
      ['NODE_OPTIONS="--require ./x.js" npm test', 'ask'],
      ['PYTHONSTARTUP=x.py python3 -m pytest', 'ask'],
      ['PYTHONHOME=x python3 -m pytest', 'ask'],
      ['NODE_PATH=src npm test', 'ask'],
      ['MAKEFILES=evil.mk make', 'ask'],
      ['MAKEFLAGS=--eval=x make', 'ask'],
      ['CDPATH=/tmp cd src', 'ask'],
      ['export LESSOPEN="|./evil %s"', 'ask'],
    ]);
  });

  describe('other programs write where these variables point', () => {
    check([
      ['SSLKEYLOGFILE=/abs/keys curl https://example.com', 'destructive', ['/abs/keys']],
      ['NODE_V8_COVERAGE=/abs/cov npm test', 'destructive', ['/abs/cov']],
      ['NODE_REDIRECT_WARNINGS=/abs/w npm test', 'destructive', ['/abs/w']],
    ]);
  });

  it('still runs harmless assignments without asking', () => {
    assert.equal(analyzeCommand('FOO=1 BAR=x git status', ROOT).verdict, 'safe');
    assert.equal(analyzeCommand('export CI=1; npm test', ROOT).verdict, 'safe');
    assert.equal(analyzeCommand('GIT_PAGER=cat git log', ROOT).verdict, 'safe');
    assert.equal(analyzeCommand('PAGER= git log', ROOT).verdict, 'safe');
    assert.equal(analyzeCommand('PAGER=./evil git log', ROOT).verdict, 'ask');
  });
});
