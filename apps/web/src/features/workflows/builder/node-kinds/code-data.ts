// A Code node's data as the canvas and the panel read it.
/**
 * A Code node's fields, each read on its own: a limit out of range (flagged in its field, refused by
 * a save) must not blank the source, as a failed parse of the whole data would.
 */
export function codeDataOf(data: Record<string, unknown>): {
  source: string;
  timeoutMs: number | undefined;
  memoryMb: number | undefined;
} {
  const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined);
  return {
    source: typeof data.source === 'string' ? data.source : '',
    timeoutMs: numberOf(data.timeoutMs),
    memoryMb: numberOf(data.memoryMb),
  };
}
