import { isIP } from 'node:net';
import type { MailSettings } from '../env';
import {
  createAddressPolicy,
  defaultLookup,
  EgressError,
  resolvePermitted,
  type LookupFn,
  type ReservedCheck,
} from '../egress';
import { loadOnce } from '../load-once';

/** One system message: plain text, to one address. */
export type MailMessage = { to: string; subject: string; text: string };

export type Mailer = {
  /** False without SMTP_URL: callers then say where the message would have gone (and send nothing). */
  readonly configured: boolean;
  /** Sends through the configured SMTP server; rejects when it refuses or cannot be reached. */
  send(message: MailMessage): Promise<void>;
};

type SmtpTarget = {
  /** The host as configured (brackets removed from an IPv6 literal): what TLS verifies. */
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
  /** The allow-list entry that trusts the configured host, as the Microsoft and Stripe hosts are. */
  allowEntry: string;
};

/** Reads SMTP_URL (env.ts has checked its scheme): the port defaults to 587, or 465 for smtps. */
function parseSmtpUrl(smtpUrl: string): SmtpTarget {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const port = Number(url.port) || (secure ? 465 : 587);
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    secure,
    auth: user ? { user, pass: decodeURIComponent(url.password) } : undefined,
    allowEntry: `${url.hostname}:${port}`,
  };
}

const TIMEOUT_MS = 15_000;

/** nodemailer, loaded by the first message sent, not at start (~3.4 MiB of memory at idle). */
const loadNodemailer = loadOnce(() => import('nodemailer').then((module) => module.default));

/**
 * The server's own mail transport (nodemailer over SMTP) for system messages: email verification,
 * password reset, invitations. nodemailer opens its own sockets, so the egress module cannot carry them:
 * instead the host is resolved and checked with the same policy as the product's other configured
 * services (`service`: the configured host is trusted, the product's own ports and database never are),
 * and nodemailer connects to exactly the checked address, TLS still verifying the configured name.
 * nodemailer's own logger stays off: its transcript would hold the AUTH exchange.
 */
export function createMailer(deps: {
  settings: MailSettings;
  allowList?: readonly string[];
  reserved?: ReservedCheck;
  lookup?: LookupFn;
}): Mailer {
  const { settings } = deps;
  if (!settings.smtpUrl) {
    return {
      configured: false,
      send: () => Promise.reject(new Error('No mail transport is configured (SMTP_URL)')),
    };
  }
  const target = parseSmtpUrl(settings.smtpUrl);
  const policy = createAddressPolicy(
    'service',
    [...(deps.allowList ?? []), target.allowEntry],
    deps.reserved,
  );
  const lookup = deps.lookup ?? defaultLookup;

  return {
    configured: true,
    async send(message) {
      const outcome = await resolvePermitted(policy, lookup, target.host, target.port);
      if (!outcome.ok) {
        throw new EgressError(
          outcome.reason === 'blocked' ? 'blocked_address' : 'network',
          `Mail server ${target.host} is ${outcome.reason === 'blocked' ? 'not allowed' : 'unreachable'}`,
        );
      }
      const { createTransport } = await loadNodemailer();
      const transport = createTransport({
        host: outcome.addresses[0].address,
        port: target.port,
        secure: target.secure,
        servername: isIP(target.host) ? undefined : target.host,
        auth: target.auth,
        connectionTimeout: TIMEOUT_MS,
        greetingTimeout: TIMEOUT_MS,
        socketTimeout: TIMEOUT_MS,
        logger: false,
      });
      try {
        await transport.sendMail({
          from: settings.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
        });
      } finally {
        transport.close();
      }
    },
  };
}
