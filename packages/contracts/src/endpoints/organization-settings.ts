import { organizationSettingsSchema, updateOrganizationSettingsSchema } from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** The caller's organization's settings (Settings → Organization): any member reads, admins change. */
export const organizationSettingsEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: paths.organizationSettings.get,
    response: { 200: organizationSettingsSchema },
    summary: "My organization's settings",
    tag: 'Organizations',
    auth: 'token',
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: paths.organizationSettings.get,
    body: updateOrganizationSettingsSchema,
    response: { 200: organizationSettingsSchema },
    summary: "Change my organization's settings",
    tag: 'Organizations',
    auth: 'token',
    role: 'admin',
  }),
};
