// Secrets in text: API keys and tokens of well-known shapes, private keys, connection strings with a
// password (docs/decisions/0047-guardrail-detectors.md). secretlint's recommended rules find most
// vendors' tokens (and are kept up to date as vendors change their formats); the patterns here add
// what they lack: Stripe keys longer than its 99 characters, Google API keys, JWTs, AWS keys with
// exact offsets, Redis and AMQP URLs, OpenAI and Anthropic keys of newer shapes. Only kinds and
// offsets leave this file, never values.
import { withoutOverlaps, type Span } from './spans';
import { loadOnce } from '../../../platform/load-once';

/**
 * secretlint's rules, less two: `filter-comments`, which lets a `secretlint-disable` comment in the
 * text hide what follows (anyone who writes the text could switch the check off), and `aws`, whose
 * secret-key offsets start at the label rather than the key (a redaction would leave the key's tail).
 */
const skippedRules = ['@secretlint/secretlint-rule-filter-comments', '@secretlint/secretlint-rule-aws'];

/**
 * secretlint and its rules, loaded by the first check, not at start: they cost ~7 MiB of memory in
 * a server that never checks for secrets.
 */
const loadSecretlint = loadOnce(() =>
  Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')]).then(
    ([core, preset]) => ({
      lintSource: core.lintSource,
      config: {
        rules: preset.rules
          .filter((rule) => !skippedRules.includes(rule.meta.id))
          .map((rule) => ({ id: rule.meta.id, rule })),
      },
    }),
  ),
);

/** The kind of a secretlint rule's finding, by the rule's id. */
const secretlintKinds: Record<string, string> = {
  gcp: 'gcp_service_account_key',
  npm: 'npm_token',
  slack: 'slack_token',
  basicauth: 'url_credentials',
  openai: 'openai_api_key',
  anthropic: 'anthropic_api_key',
  groq: 'groq_api_key',
  huggingface: 'huggingface_token',
  linear: 'linear_api_key',
  notion: 'notion_token',
  privatekey: 'private_key',
  sendgrid: 'sendgrid_api_key',
  shopify: 'shopify_token',
  github: 'github_token',
  gitlab: 'gitlab_token',
  grafana: 'grafana_token',
  '1password': 'onepassword_token',
  'database-connection-string': 'connection_string',
  'hashicorp-vault': 'vault_token',
  vercel: 'vercel_token',
  databricks: 'databricks_token',
  docker: 'docker_credentials',
  figma: 'figma_token',
  stripe: 'stripe_key',
  cloudflare: 'cloudflare_api_token',
  tailscale: 'tailscale_key',
};
const kindOfRule = (ruleId: string) => {
  const name = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  return secretlintKinds[name] ?? `${name.replaceAll('-', '_')}_secret`;
};

async function secretlintFindings(text: string): Promise<Span[]> {
  const { lintSource, config } = await loadSecretlint();
  const result = await lintSource({
    source: { content: text, filePath: '/guardrail.txt', ext: '.txt', contentType: 'text' },
    // Masked: the messages (which are not used) do not even hold the values.
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  return result.messages.map((m) => ({ kind: kindOfRule(m.ruleId), start: m.range[0], end: m.range[1] }));
}

/** A token's own boundaries: not glued to the letters, digits, `_` or `-` of a longer word. */
const before = String.raw`(?<![\p{L}\p{N}_-])`;
const after = String.raw`(?![\p{L}\p{N}_-])`;
const token = (body: string) => new RegExp(`${before}${body}${after}`, 'gu');

/** Whether a random-looking part mixes upper case, lower case and digits, as generated keys do. */
const mixed = (s: string) => /[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s);

const base64UrlJson = (part: string): unknown => {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};

type Pattern = { kind: string; pattern: RegExp; keep?: (match: RegExpExecArray, text: string) => boolean };

const awsKeyId = token('(?:AKIA|ASIA)[A-Z0-9]{16}');

const patterns: Pattern[] = [
  {
    kind: 'openai_api_key',
    pattern: token('sk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{40,300})'),
    keep: (m) => !m[0].startsWith('sk-ant-') && mixed(m[1]),
  },
  { kind: 'anthropic_api_key', pattern: token('sk-ant-(?:api|admin|oat|ort)\\d{2}-[A-Za-z0-9_-]{80,200}') },
  { kind: 'aws_access_key', pattern: awsKeyId },
  {
    // A secret access key is 40 characters of base64 with nothing to tell it apart: it counts next to
    // its label (aws_secret_access_key = …) or within 200 characters of an access key id.
    kind: 'aws_secret_key',
    pattern: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    keep: (m, text) => {
      if (!mixed(m[0])) return false;
      const label = text.slice(Math.max(0, m.index - 40), m.index);
      if (/secret_?access_?key["']?\s*(?:[:=]|=>)\s*["']?$/i.test(label)) return true;
      const near = text.slice(Math.max(0, m.index - 200), m.index + m[0].length + 200);
      return new RegExp(awsKeyId.source, 'u').test(near);
    },
  },
  { kind: 'stripe_key', pattern: token('(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,247}') },
  { kind: 'google_api_key', pattern: token('AIza[0-9A-Za-z_-]{35}') },
  {
    // A JWT's header and payload are base64url JSON; its header names the algorithm.
    kind: 'jwt',
    pattern: token('eyJ[A-Za-z0-9_-]{5,2000}\\.eyJ[A-Za-z0-9_-]{5,8000}\\.[A-Za-z0-9_-]{0,2000}'),
    keep: (m) => {
      const header = base64UrlJson(m[0].split('.')[0]);
      return typeof header === 'object' && header !== null && 'alg' in header;
    },
  },
  {
    kind: 'private_key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----[\s\S]{1,20000}?-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g,
  },
  {
    // A database or broker URL with a password; placeholders (${…}, {{…}}, <…>, ****) are not secrets.
    kind: 'connection_string',
    pattern:
      /(?<![\p{L}\p{N}+.-])(?:postgres(?:ql)?|mysqlx?|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver):\/\/[^\s:/@]{0,200}:([^\s@/]{1,200})@[^\s"'`<>]{1,1000}/gu,
    keep: (m) => !/^(?:\$\{.*\}|\{\{.*\}\}|<.*>|\*+|x+)$/i.test(m[1]),
  },
];

function patternFindings(text: string): Span[] {
  const found: Span[] = [];
  for (const { kind, pattern, keep } of patterns) {
    for (const m of text.matchAll(pattern)) {
      if (!keep || keep(m, text)) found.push({ kind, start: m.index, end: m.index + m[0].length });
    }
  }
  return found;
}

/** Between two overlapping findings of the same length, the one named here first wins. */
const specificity = ['private_key', 'connection_string', 'anthropic_api_key', 'openai_api_key', 'jwt'];

/**
 * The secrets in `text`: kinds ('openai_api_key', 'aws_access_key', 'private_key',
 * 'connection_string', …) and offsets in UTF-16 code units, no two overlapping (the longer wins),
 * sorted by start.
 */
export async function detectSecrets(text: string): Promise<Span[]> {
  const [fromSecretlint, fromPatterns] = [await secretlintFindings(text), patternFindings(text)];
  return withoutOverlaps([...fromSecretlint, ...fromPatterns], specificity);
}
