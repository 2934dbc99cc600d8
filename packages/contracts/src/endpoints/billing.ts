import {
  billingConfigResponseSchema,
  createSubscriptionResponseSchema,
  createSubscriptionSchema,
  invoicesResponseSchema,
  setupIntentResponseSchema,
  subscriptionStatusResponseSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/**
 * The organization's plan and subscription: any member reads it, only an owner changes it; owners
 * and admins read the invoices.
 */
export const billingEndpoints = {
  status: defineEndpoint({
    method: 'GET',
    path: paths.billing.status,
    response: { 200: subscriptionStatusResponseSchema },
    summary: 'Plan and subscription',
    tag: 'Billing',
    auth: 'token',
  }),
  config: defineEndpoint({
    method: 'GET',
    path: paths.billing.config,
    response: { 200: billingConfigResponseSchema },
    summary: 'Billing configuration',
    tag: 'Billing',
    auth: 'token',
  }),
  subscribe: defineEndpoint({
    method: 'POST',
    path: paths.billing.subscribe,
    body: createSubscriptionSchema,
    response: { 200: createSubscriptionResponseSchema },
    summary: 'Subscribe or change plan',
    tag: 'Billing',
    auth: 'token',
    role: 'owner',
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: paths.billing.cancel,
    response: { 200: subscriptionStatusResponseSchema },
    summary: 'Cancel the subscription',
    tag: 'Billing',
    auth: 'token',
    role: 'owner',
    errors: { 409: 'There is no subscription to cancel, or it is already canceled.' },
  }),
  // Invoices show amounts paid: owners and admins, not every member.
  invoices: defineEndpoint({
    method: 'GET',
    path: paths.billing.invoices,
    response: { 200: invoicesResponseSchema },
    summary: 'List invoices',
    tag: 'Billing',
    auth: 'token',
    role: 'admin',
  }),
  setupIntent: defineEndpoint({
    method: 'POST',
    path: paths.billing.setupIntent,
    response: { 200: setupIntentResponseSchema },
    summary: 'Start a payment method setup',
    tag: 'Billing',
    auth: 'token',
    role: 'owner',
  }),
  // Public: the Stripe-Signature header is the credential; the body is read raw (described by hand).
  stripeWebhook: defineEndpoint({
    method: 'POST',
    path: paths.billing.stripeWebhook,
    summary: 'Stripe webhook',
    tag: 'Billing',
    auth: 'public',
  }),
};
