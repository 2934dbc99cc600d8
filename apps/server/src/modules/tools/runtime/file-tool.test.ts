import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileTool } from './file-tool';

// The folder's confinement (paths, symlinks, sizes) is tested with platform/files/confined-folder.ts.

let base: string;
let rootDir: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'crewline-file-tool-'));
  rootDir = path.join(base, 'files', 'org-1');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const tool = () => createFileTool({ rootDir });
const call = (args: Record<string, unknown>) => tool().execute(args);

describe('file tool', () => {
  it('validates its arguments', async () => {
    await expect(call({ operation: 'chmod', path: 'a' })).rejects.toThrow(/Invalid arguments: operation/);
    await expect(call({ operation: 'write', path: 'a.txt' })).rejects.toThrow(
      'content is required for write',
    );
    expect(existsSync(path.join(rootDir, 'a.txt'))).toBe(false);
  });

  it('describes itself as working in a private folder', () => {
    expect(tool().description).toMatch(/organization's private folder/);
    expect(tool().inputSchema).toMatchObject({ required: ['operation', 'path'] });
  });
});
