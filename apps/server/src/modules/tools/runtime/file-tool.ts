import path from 'node:path';
import { z } from 'zod';
import { inFolder } from '../../../platform/files/confined-folder';
import type { LlmTool } from '../../../platform/llm';

/**
 * `file` tools: text files in the organization's private folder (docs/security.md). The path comes from
 * the model, which follows whatever text it was shown, so every path is treated as hostile:
 * platform/files/confined-folder.ts keeps it inside the folder, as written and after symlinks.
 */

export type FileToolOptions = {
  /** DATA_DIR/files/<organizationId>; created with mode 0700 on first use. */
  rootDir: string;
  /** Largest file read or written, in bytes. */
  maxBytes?: number;
};

const MAX_PATH_CHARS = 1024;

const fileArgs = z.object({
  operation: z.enum(['read', 'write', 'append', 'list', 'delete']),
  path: z.string().max(MAX_PATH_CHARS).default(''),
  content: z.string().optional(),
});

export function createFileTool(options: FileToolOptions): LlmTool {
  const rootDir = path.resolve(options.rootDir);
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0)
    throw new TypeError('file tool maxBytes must be a whole number > 0');
  return {
    description:
      "Reads and writes UTF-8 text files in the organization's private folder. Operations: read, write " +
      '(replaces the file), append, list (a folder) and delete. Paths are relative to that folder, e.g. ' +
      `"notes/todo.txt"; files are limited to ${maxBytes} bytes.`,
    inputSchema: {
      type: 'object',
      properties: {
        operation: { type: 'string', enum: ['read', 'write', 'append', 'list', 'delete'] },
        path: {
          type: 'string',
          description: 'Relative path inside the folder; "" or "." lists the folder itself',
        },
        content: { type: 'string', description: 'Text to write or append' },
      },
      required: ['operation', 'path'],
    },
    async execute(raw, callOptions) {
      callOptions?.signal?.throwIfAborted();
      const parsed = fileArgs.safeParse(raw);
      if (!parsed.success) {
        throw new Error(
          `Invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`,
        );
      }
      return inFolder(rootDir, parsed.data, maxBytes);
    },
  };
}
