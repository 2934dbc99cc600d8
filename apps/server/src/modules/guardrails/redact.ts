import { redactionOf, type GuardrailFinding } from '@crewline/contracts';

type Redactable = Pick<GuardrailFinding, 'check' | 'kind' | 'start' | 'end'>;

/**
 * `text` with each finding replaced by its redaction ('[EMAIL]', '[CARD]', '[SECRET]'). Findings'
 * offsets are in the original text; overlapping ones are merged into one replacement, named by a
 * secret if one is among them (the stricter word), else by the longest. Replaced right to left, so
 * the offsets still to come stay true.
 */
export function redact(text: string, findings: readonly Redactable[]): string {
  const spans = findings
    .map((f) => ({ ...f, start: Math.max(0, f.start), end: Math.min(text.length, f.end) }))
    .filter((f) => f.end > f.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: { start: number; end: number; label: Redactable; length: number }[] = [];
  for (const f of spans) {
    const last = merged.at(-1);
    if (last && f.start < last.end) {
      const stronger =
        (f.check === 'secrets') !== (last.label.check === 'secrets')
          ? f.check === 'secrets'
          : f.end - f.start > last.length;
      if (stronger) Object.assign(last, { label: f, length: f.end - f.start });
      last.end = Math.max(last.end, f.end);
    } else {
      merged.push({ start: f.start, end: f.end, label: f, length: f.end - f.start });
    }
  }
  let out = text;
  for (const span of merged.reverse()) {
    out = out.slice(0, span.start) + redactionOf(span.label.check, span.label.kind) + out.slice(span.end);
  }
  return out;
}
