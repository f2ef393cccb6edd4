import { generateKeyPairSync, randomBytes } from 'node:crypto';

/** A secret in the shape secretlint's recommended rules look for, fresh each run (none is ever committed). */
export interface SampleSecret {
  /** secretlint's kind, as it appears in the marker. */
  rule: string;
  /** The text an agent would put in a command or an input. */
  text: string;
  /** Parts of it that must not appear anywhere on disk afterwards. */
  needles: string[];
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function token(length: number, alphabet = ALNUM): string {
  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('');
}

export function sampleSecrets(): SampleSecret[] {
  const github = `ghp_${token(36)}`;
  const aws = token(40, `${ALNUM}/+`);
  const password = `Pw${token(14)}`;
  const slack = `xoxb-${token(12, '0123456789')}-${token(13, '0123456789')}-${token(24)}`;
  const npm = `npm_${token(36)}`;
  const pem = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const pemLines = pem.split('\n').filter((line) => line.length >= 40 && !line.startsWith('-----'));
  return [
    { rule: 'github-token', text: github, needles: [github, github.slice(4)] },
    { rule: 'aws-secret-access-key', text: `AWS_SECRET_ACCESS_KEY=${aws}`, needles: [aws] },
    { rule: 'basic-auth', text: `https://deploy:${password}@git.example.com/team/repo.git`, needles: [password] },
    { rule: 'slack-token', text: slack, needles: [slack, slack.slice(-24)] },
    { rule: 'npm-access-token', text: npm, needles: [npm, npm.slice(4)] },
    { rule: 'private-key', text: pem, needles: pemLines },
  ];
}
