// A guardrail step's data in the step inspector: whether it passed or blocked, the text that went on
// (its redactions marked), and what each check found, by kind and position (never the values: the
// step does not keep them). Data that is not a guardrail's result is shown as a tree.
import {
  guardrailActionLabels,
  guardrailCheckLabels,
  guardrailResultSchema,
  piiEntityLabels,
  piiEntityValues,
  type GuardrailFinding,
  type PiiEntity,
} from '@crewline/contracts';
import type { ReactNode } from 'react';

import { StatusBadge } from '@/components/status-badge';
import { cn } from '@/lib/utils';

import { DataTree } from './data-tree';

/** What a redaction leaves in the text: `[EMAIL]`, `[NATIONAL_ID]`, `[SECRET]`. */
const REDACTION = new RegExp(`\\[(?:${[...piiEntityValues, 'secret'].join('|').toUpperCase()})\\]`, 'g');

/** A finding's kind in words: a PII entity's name, otherwise the kind with its first letter up. */
function findingKindLabel(finding: Pick<GuardrailFinding, 'check' | 'kind'>): string {
  if (finding.check === 'pii' && finding.kind in piiEntityLabels)
    return piiEntityLabels[finding.kind as PiiEntity];
  const words = finding.kind.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The text with each redaction marked. */
function withRedactions(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(REDACTION)) {
    if (match.index > from) parts.push(text.slice(from, match.index));
    parts.push(
      <mark
        key={match.index}
        className="rounded bg-amber-200/70 px-0.5 font-semibold text-amber-900 dark:bg-amber-500/25 dark:text-amber-200"
        title="Redacted by the guardrail"
      >
        {match[0]}
      </mark>,
    );
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

const HEADING = 'text-xs font-medium text-muted-foreground';

export function GuardrailFindings({ data }: { data: unknown }) {
  const parsed = guardrailResultSchema.safeParse(data);
  if (!parsed.success) return data === undefined ? null : <DataTree value={data} label="Step data" />;
  const { passed, text, findings } = parsed.data;
  const scored = findings.some((f) => f.score !== undefined);
  return (
    <div className="space-y-3" data-testid="guardrail-findings">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <StatusBadge label={passed ? 'Passed' : 'Blocked'} tone={passed ? 'green' : 'red'} />
        <span className="text-muted-foreground">
          {findings.length === 0
            ? 'Nothing found.'
            : `${findings.length} finding${findings.length === 1 ? '' : 's'}; the values are not kept.`}
        </span>
      </div>
      <section className="space-y-1.5">
        <h4 className={HEADING}>{passed ? 'Text that went on' : 'Text checked'}</h4>
        {/* Text is shown as text: React escapes it, whitespace is kept. */}
        <pre
          className="overflow-x-auto rounded-md border bg-muted/40 p-2.5 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap"
          data-testid="guardrail-text"
        >
          {text ? withRedactions(text) : <span className="text-muted-foreground italic">Empty</span>}
        </pre>
      </section>
      {findings.length > 0 && (
        <section className="space-y-1.5">
          <h4 className={HEADING}>Findings</h4>
          <div className="overflow-x-auto rounded-md border">
            <table className="w-full text-left text-xs" data-testid="guardrail-findings-table">
              <thead className="bg-muted/40 text-muted-foreground">
                <tr>
                  <th className="px-2.5 py-1.5 font-medium">Check</th>
                  <th className="px-2.5 py-1.5 font-medium">Kind</th>
                  <th className="px-2.5 py-1.5 font-medium">Position</th>
                  <th className="px-2.5 py-1.5 font-medium">Action</th>
                  {scored && <th className="px-2.5 py-1.5 text-right font-medium">Score</th>}
                </tr>
              </thead>
              <tbody className="divide-y">
                {findings.map((finding, index) => (
                  <tr key={index} data-testid="guardrail-finding">
                    <td className="px-2.5 py-1.5 font-medium">{guardrailCheckLabels[finding.check]}</td>
                    <td className="px-2.5 py-1.5">{findingKindLabel(finding)}</td>
                    <td className="px-2.5 py-1.5 whitespace-nowrap tabular-nums">
                      {finding.start}–{finding.end}
                    </td>
                    <td
                      className={cn(
                        'px-2.5 py-1.5',
                        finding.action === 'block' && 'font-medium text-red-700 dark:text-red-400',
                      )}
                    >
                      {guardrailActionLabels[finding.action]}
                    </td>
                    {scored && (
                      <td className="px-2.5 py-1.5 text-right tabular-nums">
                        {finding.score === undefined ? '' : finding.score.toFixed(2)}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}
