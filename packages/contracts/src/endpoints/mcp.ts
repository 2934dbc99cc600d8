import {
  idParamsSchema,
  mcpServerSchema,
  updateWorkflowPublishingSchema,
  workflowPublishingSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** Where workflows are published (the organization's MCP server), and what that server offers. */
export const mcpEndpoints = {
  publishing: defineEndpoint({
    method: 'GET',
    path: paths.mcp.publishing,
    params: idParamsSchema,
    response: { 200: workflowPublishingSchema },
    summary: "Get a workflow's publishing",
    tag: 'MCP',
    auth: 'token',
  }),
  setPublishing: defineEndpoint({
    method: 'PUT',
    path: paths.mcp.publishing,
    params: idParamsSchema,
    body: updateWorkflowPublishingSchema,
    response: { 200: workflowPublishingSchema },
    summary: 'Publish a workflow (or stop publishing it)',
    tag: 'MCP',
    auth: 'token',
    role: 'admin',
    errors: {
      400: 'The workflow is not active, or the input schema is not a valid object schema.',
      409: 'Another workflow of the organization is published under the same tool name.',
    },
  }),
  server: defineEndpoint({
    method: 'GET',
    path: paths.mcp.server,
    response: { 200: mcpServerSchema },
    summary: "The organization's MCP endpoint and its tools",
    tag: 'MCP',
    auth: 'token',
  }),
};
