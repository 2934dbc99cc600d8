import { mcpMessages } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_MCP_INPUT_SCHEMA,
  defaultToolName,
  MCP_BAD_TIMEOUT,
  MCP_INVALID_JSON,
  mcpBodyOf,
  mcpDraftOf,
  placeMcpError,
  type McpDraft,
} from './mcp-publishing';

const draft = (patch: Partial<McpDraft> = {}): McpDraft => ({
  enabled: true,
  toolName: 'weekly_report',
  description: 'Writes the weekly report',
  inputSchema: JSON.stringify(DEFAULT_MCP_INPUT_SCHEMA),
  timeoutSeconds: '60',
  ...patch,
});

describe("a published tool's defaults", () => {
  it("takes the tool name from the workflow's name: lower case, _ for the rest, at most 64", () => {
    expect(defaultToolName('Weekly Report (EU)')).toBe('weekly_report_eu');
    expect(defaultToolName('Résumé  screening!')).toBe('resume_screening');
    expect(defaultToolName('a'.repeat(70))).toHaveLength(64);
    expect(defaultToolName('!!!')).toBe('workflow');
  });

  it("starts switched off with the workflow's description, one text input and 60 seconds", () => {
    const form = mcpDraftOf(null, { name: 'Support triage', description: ' Sorts tickets ' });
    expect(form).toMatchObject({
      enabled: false,
      toolName: 'support_triage',
      description: 'Sorts tickets',
      timeoutSeconds: '60',
    });
    expect(JSON.parse(form.inputSchema)).toEqual({
      type: 'object',
      properties: { input: { type: 'string' } },
    });
  });

  it("uses the Start node's object input schema when it declares one", () => {
    const schema = { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] };
    const form = mcpDraftOf(null, { name: 'Flow', description: '', startData: { inputSchema: schema } });
    expect(JSON.parse(form.inputSchema)).toEqual(schema);
    // Not an object schema: the default.
    const other = mcpDraftOf(null, {
      name: 'Flow',
      description: '',
      startData: { inputSchema: { type: 'string' } },
    });
    expect(JSON.parse(other.inputSchema)).toEqual(DEFAULT_MCP_INPUT_SCHEMA);
  });
});

describe('what the section sends', () => {
  it('sends the tool with its parsed schema and seconds, or null when switched off', () => {
    expect(mcpBodyOf(draft({ timeoutSeconds: ' 120 ' }))).toEqual({
      ok: true,
      body: {
        mcp: {
          enabled: true,
          toolName: 'weekly_report',
          description: 'Writes the weekly report',
          inputSchema: DEFAULT_MCP_INPUT_SCHEMA,
          timeoutSeconds: 120,
        },
      },
    });
    expect(mcpBodyOf(draft({ enabled: false, inputSchema: 'not json' }))).toEqual({
      ok: true,
      body: { mcp: null },
    });
  });

  it("names each wrong field in the contract's words and sends nothing", () => {
    expect(
      mcpBodyOf(
        draft({ toolName: 'weekly report', description: ' ', inputSchema: '{', timeoutSeconds: '0' }),
      ),
    ).toEqual({
      ok: false,
      errors: {
        toolName: 'Tool name: 1 to 64 letters, digits, "_" or "-"',
        description: 'Description is required',
        inputSchema: MCP_INVALID_JSON,
        timeoutSeconds: MCP_BAD_TIMEOUT,
      },
    });
    expect(mcpBodyOf(draft({ inputSchema: '{"type": "string"}' }))).toEqual({
      ok: false,
      errors: { inputSchema: 'The input schema must be of "type": "object"' },
    });
    expect(mcpBodyOf(draft({ timeoutSeconds: '601' }))).toMatchObject({ ok: false });
  });
});

describe("where the server's refusal shows", () => {
  it('puts a taken tool name under Tool name and field errors under their fields', () => {
    const taken = mcpMessages.toolNameTaken('weekly_report');
    expect(placeMcpError({ status: 409, message: taken, errors: [] })).toEqual({
      fields: { toolName: taken },
      banner: null,
    });
    expect(
      placeMcpError({
        status: 400,
        message: 'Bad',
        errors: [{ path: 'mcp.inputSchema', message: 'Unknown keyword "typ"' }],
      }),
    ).toEqual({ fields: { inputSchema: 'Unknown keyword "typ"' }, banner: null });
    const named = 'Input schema: "properties" must be an object';
    expect(placeMcpError({ status: 400, message: named, errors: [] }).fields).toEqual({ inputSchema: named });
  });

  it('keeps the draft refusal and anything else above the Save button', () => {
    expect(placeMcpError({ status: 400, message: mcpMessages.notActive, errors: [] })).toEqual({
      fields: {},
      banner: mcpMessages.notActive,
    });
    expect(placeMcpError({ status: null, message: null, errors: [] })).toEqual({ fields: {}, banner: null });
  });
});
