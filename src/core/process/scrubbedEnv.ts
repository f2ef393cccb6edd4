/** Names that look like they hold a secret. */
const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_KEY|CREDENTIAL|SESSION|COOKIE|AUTH)/i;

/**
 * Well-known secrets the pattern does not catch (GITHUB_TOKEN, NPM_TOKEN, OPENAI_API_KEY, ANTHROPIC_API_KEY
 * and friends already match it). Variables that only point at a credentials file are kept: the file is
 * readable from HOME anyway, and dropping them breaks the tools that need them.
 */
const SECRET_NAMES = new Set(['DATABASE_URL', 'SENTRY_DSN', 'SLACK_WEBHOOK_URL', 'DISCORD_WEBHOOK_URL']);

/** Whole families of cloud credentials and configuration. */
const SECRET_PREFIXES = ['AWS_', 'AZURE_', 'ARM_CLIENT_', 'GCP_', 'GOOGLE_CLOUD_', 'CLOUDSDK_', 'VAULT_', 'DIGITALOCEAN_', 'HEROKU_'];

/** Names the pattern would catch by accident that tools need (git identity, desktop session type). */
const SAFE_NAMES = new Set(['DESKTOP_SESSION']);
const SAFE_PREFIXES = ['GIT_AUTHOR_', 'XDG_SESSION_'];

/** A value like `postgres://user:password@host` carries a secret whatever its name. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

/**
 * The environment for processes the governor starts (user hooks, agent commands): the parent's, minus
 * anything that looks like a credential, so a command cannot read the extension host's tokens.
 * PATH, HOME, LANG, TERM, SHELL and the like are kept, or nothing would run.
 */
export function scrubEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isSecret(name, value)) continue;
    kept[name] = value;
  }
  return kept;
}

function isSecret(name: string, value: string): boolean {
  if (URL_WITH_PASSWORD.test(value)) return true;
  const upper = name.toUpperCase();
  if (SAFE_NAMES.has(upper) || SAFE_PREFIXES.some((prefix) => upper.startsWith(prefix))) return false;
  return SECRET_NAME.test(upper) || SECRET_NAMES.has(upper) || SECRET_PREFIXES.some((prefix) => upper.startsWith(prefix));
}
