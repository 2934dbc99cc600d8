import { salesInquiryMessages, type SalesInquiry, type SalesInquiryData } from '@crewline/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { ForbiddenError, TooManyRequestsError } from '../../platform/errors';
import type { Mailer } from '../../platform/mail';
import { retryAfterSeconds, type RateLimitRepository } from '../../platform/rate-limit.repository';
import type { SalesRepository } from './sales.repository';

/** Messages one address may send in an hour: enough for a person, not for a flood of the table. */
export const SALES_INQUIRIES_PER_HOUR = 5;
const WINDOW_SECONDS = 3600;
const BUCKET = 'sales_inquiry';

export const salesTooMany = 'Too many messages from this address. Try again later.';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/** Who reads the messages: an account whose verified email is one of OPERATOR_EMAILS. */
export type Reader = { email: string; emailVerifiedAt: Date | null };

/**
 * Talk to Sales (docs/product-rules.md, Templates, Talk to Sales): the landing page's contact form.
 * A message is stored, logged without its body, and mailed to SALES_EMAIL when a mail transport is
 * configured; the operator's administrators (OPERATOR_EMAILS) list them.
 */
export function createSalesService(deps: {
  repository: SalesRepository;
  rateLimits: RateLimitRepository;
  mailer: Mailer;
  settings: { operatorEmails: readonly string[]; salesEmail: string | undefined };
}) {
  const { repository, rateLimits, mailer, settings } = deps;

  async function mail(inquiry: SalesInquiryData, log: Log): Promise<void> {
    if (!settings.salesEmail || !mailer.configured) return;
    try {
      await mailer.send({
        to: settings.salesEmail,
        subject: `Talk to Sales: ${inquiry.name} (${inquiry.company})`,
        text: [
          `Name: ${inquiry.name}`,
          `Work email: ${inquiry.email}`,
          `Company: ${inquiry.company}`,
          '',
          inquiry.message,
        ].join('\n'),
      });
    } catch (error) {
      // Stored already: the operator still reads it in the list.
      log.warn({ err: error }, 'sales inquiry: mail to SALES_EMAIL failed');
    }
  }

  return {
    /** POST /api/sales-inquiries: what the form shows on success. */
    async submit(inquiry: SalesInquiryData, ip: string, log: Log): Promise<{ message: string }> {
      const taken = await rateLimits.take(BUCKET, ip, SALES_INQUIRIES_PER_HOUR, WINDOW_SECONDS);
      if (!taken.allowed) {
        throw new TooManyRequestsError(salesTooMany, retryAfterSeconds(taken.oldest, WINDOW_SECONDS));
      }
      const { id } = await repository.create(inquiry);
      // Who wrote and from which company, never the message: log lines are read more widely.
      log.info({ salesInquiryId: id, company: inquiry.company }, 'sales inquiry received');
      await mail(inquiry, log);
      return { message: salesInquiryMessages.sent(inquiry.email) };
    },

    /** GET /api/system/sales-inquiries: the operator's administrators only (403 for anyone else). */
    async list(reader: Reader): Promise<SalesInquiry[]> {
      const email = reader.email.trim().toLowerCase();
      if (!reader.emailVerifiedAt || !settings.operatorEmails.includes(email)) {
        throw new ForbiddenError(salesInquiryMessages.operatorOnly);
      }
      return repository.list();
    },
  };
}
export type SalesService = ReturnType<typeof createSalesService>;
