import {
  approvalLinkDecidedSchema,
  approvalLinkDecisionSchema,
  approvalLinkMessages,
  approvalLinkParamsSchema,
  approvalLinkViewSchema,
  approvalMessages,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/**
 * The emailed Approve and Reject links (docs/security.md, Approval links): public, the link's 256-bit
 * token is the credential and binds one approver to one decision.
 */
export const approvalLinksEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: paths.approvalLinks.get,
    params: approvalLinkParamsSchema,
    response: { 200: approvalLinkViewSchema },
    summary: 'Open an approval link',
    tag: 'Approvals',
    auth: 'public',
    errors: {
      404: approvalLinkMessages.notFound,
      410: `${approvalLinkMessages.used}, or: ${approvalLinkMessages.expired}`,
    },
  }),
  decide: defineEndpoint({
    method: 'POST',
    path: paths.approvalLinks.get,
    params: approvalLinkParamsSchema,
    body: approvalLinkDecisionSchema,
    response: { 200: approvalLinkDecidedSchema },
    summary: 'Confirm an approval link’s decision',
    tag: 'Approvals',
    auth: 'public',
    errors: {
      400: 'A required form field is missing or a field is invalid (`errors` names it)',
      403: approvalMessages.notAllowed,
      404: approvalLinkMessages.notFound,
      409: approvalMessages.decided,
      410: `${approvalLinkMessages.used}, or: ${approvalLinkMessages.expired}`,
    },
  }),
};
