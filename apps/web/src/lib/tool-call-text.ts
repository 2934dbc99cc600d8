// A tool call as the run details and the agent playground show it: its arguments and its result,
// indented when they are JSON.

/** Tool arguments as indented JSON; a text the model gave instead of an object is shown as it is. */
export function formatToolArguments(args: unknown): string {
  if (typeof args === 'string') return args;
  if (args === undefined || args === null) return '{}';
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}

/** A tool result that is JSON reads indented; other text (or JSON cut at the length limit) as it came. */
export function formatToolResult(result: string): string {
  const trimmed = result.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return result;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return result;
  }
}
