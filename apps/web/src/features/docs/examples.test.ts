import { describe, expect, it } from 'vitest';

import {
  apiBase,
  apiKeySetup,
  executeWorkflowCurl,
  getExecutionCurl,
  listExecutionsCurl,
  listWorkflowsCurl,
  nodeFetchExample,
  webhookFormCurl,
  webhookJsonCurl,
  webhookSetup,
  webhookTextCurl,
  webhookWaitCurl,
} from './examples';

const origin = 'https://crewline.example.com';

describe('apiBase', () => {
  it('keeps the origin without a trailing slash', () => {
    expect(apiBase('https://crewline.example.com/')).toBe(origin);
    expect(apiBase(' http://127.0.0.1:5000 ')).toBe('http://127.0.0.1:5000');
  });
});

describe('curl examples', () => {
  const curls = [
    webhookJsonCurl,
    webhookTextCurl,
    webhookFormCurl,
    webhookWaitCurl,
    listWorkflowsCurl,
    executeWorkflowCurl,
    getExecutionCurl,
    listExecutionsCurl,
  ];

  it('call this instance, in double quotes so the shell variables expand', () => {
    for (const build of curls) {
      const text = build(`${origin}/`);
      expect(text, build.name).toMatch(new RegExp(`^curl (-i )?(-X POST )?"${origin}/api/`));
      expect(text, build.name).not.toContain('//api');
    }
  });

  it('continue every line but the last with a backslash, unless it ends inside a quoted body', () => {
    for (const build of curls) {
      const lines = build(origin).split('\n');
      let quoted = false;
      lines.forEach((line, i) => {
        quoted = (line.split("'").length - 1) % 2 === 1 ? !quoted : quoted;
        const last = i === lines.length - 1;
        if (last) expect(line, build.name).not.toMatch(/\\$/);
        else if (!quoted) expect(line, build.name).toMatch(/ \\$/);
      });
      expect(quoted, build.name).toBe(false);
    }
  });

  it('send JSON bodies that parse, with a JSON content type', () => {
    for (const build of [webhookJsonCurl, webhookWaitCurl, executeWorkflowCurl]) {
      const text = build(origin);
      expect(text).toContain('-H "Content-Type: application/json"');
      const body = /-d '([\s\S]*?)'$/m.exec(text)?.[1];
      expect(() => JSON.parse(body ?? ''), build.name).not.toThrow();
    }
  });

  it('names the webhook secret in the header or the query, and the key as a bearer token', () => {
    expect(webhookJsonCurl(origin)).toContain('-H "X-Webhook-Secret: $WEBHOOK_SECRET"');
    expect(webhookTextCurl(origin)).toContain('?secret=$WEBHOOK_SECRET"');
    expect(webhookFormCurl(origin)).toContain('?secret=$WEBHOOK_SECRET"');
    expect(webhookWaitCurl(origin)).toContain('?wait=true"');
    for (const build of [listWorkflowsCurl, executeWorkflowCurl, getExecutionCurl, listExecutionsCurl]) {
      expect(build(origin)).toContain('-H "Authorization: Bearer $CREWLINE_API_KEY"');
    }
  });

  it('execute with the documented body', () => {
    const body = JSON.parse(/-d '([\s\S]*?)'$/m.exec(executeWorkflowCurl(origin))![1]);
    expect(Object.keys(body).sort()).toEqual(['dynamicInstructions', 'input', 'parameters']);
  });

  it('set the variables the commands use', () => {
    expect(webhookSetup).toMatch(/^export WORKFLOW_ID=/m);
    expect(webhookSetup).toMatch(/^export WEBHOOK_SECRET=/m);
    expect(apiKeySetup).toMatch(/^export CREWLINE_API_KEY=/m);
    expect(apiKeySetup).toMatch(/^export WORKFLOW_ID=/m);
  });
});

describe('nodeFetchExample', () => {
  it('targets this instance and polls until the run ends', () => {
    const code = nodeFetchExample(`${origin}/`);
    expect(code).toContain(`const BASE_URL = '${origin}';`);
    expect(code).toContain("['completed', 'failed', 'cancelled']");
    expect(code).toContain('/api/workflows/${WORKFLOW_ID}/execute');
    expect(code).toContain('/api/executions/${run.id}');
    expect(code).toContain("res.headers.get('retry-after')");
  });

  it('is a module Node can parse', async () => {
    // Top-level await: parse it as the body of an async function.
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
      ...args: string[]
    ) => unknown;
    expect(() => new AsyncFunction('process', nodeFetchExample(origin))).not.toThrow();
  });
});
