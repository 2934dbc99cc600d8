import { salesInquiriesResponseSchema, salesInquiryAcceptedSchema, salesInquirySchema } from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** Talk to Sales: the landing page's form, and the operator's administrators reading it. */
export const salesEndpoints = {
  submit: defineEndpoint({
    method: 'POST',
    path: paths.sales.submit,
    body: salesInquirySchema,
    response: { 202: salesInquiryAcceptedSchema },
    summary: 'Send a message to sales',
    tag: 'System',
    auth: 'public',
    errors: { 429: 'Too many messages from this address: retry after the `Retry-After` seconds.' },
  }),
  list: defineEndpoint({
    method: 'GET',
    path: paths.sales.list,
    response: { 200: salesInquiriesResponseSchema },
    summary: 'List sales inquiries (operator administrators)',
    tag: 'System',
    auth: 'session',
    errors: {
      403: 'The account is not one of the operator’s administrators (OPERATOR_EMAILS, verified).',
    },
  }),
};
