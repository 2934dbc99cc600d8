import { z } from 'zod';
import {
  costRowSchema,
  costsQuerySchema,
  organizationBudgetSchema,
  updateOrganizationBudgetSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** What the organization spends on models (Analytics → Costs) and its monthly budget (Settings → Costs). */
export const costsEndpoints = {
  usage: defineEndpoint({
    method: 'GET',
    path: paths.costs.usage,
    query: costsQuerySchema,
    response: { 200: z.array(costRowSchema) },
    summary:
      "My organization's model spend in a range, grouped by day, workflow, agent, model, source or trigger",
    tag: 'Costs',
    auth: 'token',
  }),
  budget: defineEndpoint({
    method: 'GET',
    path: paths.costs.organizationBudget,
    response: { 200: organizationBudgetSchema },
    summary: "My organization's monthly budget and this month's spend",
    tag: 'Costs',
    auth: 'token',
  }),
  setBudget: defineEndpoint({
    method: 'PUT',
    path: paths.costs.organizationBudget,
    body: updateOrganizationBudgetSchema,
    response: { 200: organizationBudgetSchema },
    summary: "Set or remove my organization's monthly budget",
    tag: 'Costs',
    auth: 'token',
    role: 'admin',
  }),
};
