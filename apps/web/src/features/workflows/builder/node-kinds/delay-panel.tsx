// The Delay node's part of the Properties panel: wait for a duration, or until the time an expression
// gives (a CEL timestamp, or an ISO date string).
import { APPROVAL_MAX_SECONDS } from '@crewline/contracts';

import { ExpressionField } from '../components/expression-field';
import { nodeDisplayName } from '../node-messages';
import { ChoiceGroup } from './choice-group';
import { delayDraftOf, delayModeOf, type DelayMode } from './delay-data';
import { DurationField } from './duration-field';
import type { NodePanelProps } from './types';

/** A new duration: an hour. */
const DEFAULT_SECONDS = 3600;

export function DelayPanelSettings({ node, set }: NodePanelProps) {
  const draft = delayDraftOf(node.data);
  const mode = delayModeOf(draft);
  return (
    <ChoiceGroup<DelayMode>
      label="Waits"
      value={mode}
      onChange={(next) =>
        set(
          next === 'for' ? { seconds: DEFAULT_SECONDS, until: undefined } : { until: '', seconds: undefined },
          null,
        )
      }
      options={[
        {
          value: 'for',
          label: 'Wait for',
          hint: 'A duration from when the step starts.',
          extra: (
            <DurationField
              label="Duration"
              seconds={draft.seconds ?? 0}
              units={['seconds', 'minutes', 'hours', 'days']}
              max={APPROVAL_MAX_SECONDS}
              hint="From 1 second to 90 days."
              onChange={(seconds) => set({ seconds }, 'seconds')}
            />
          ),
        },
        {
          value: 'until',
          label: 'Wait until',
          hint: 'A time from the run: a time already past goes on at once.',
          extra: (
            <ExpressionField
              label="Until"
              value={draft.until ?? ''}
              quotedAs={draft.until?.trim() || 'until'}
              nodeId={node.id}
              nodeName={nodeDisplayName(node)}
              syntax="expression"
              placeholder="timestamp(input.sendAt)"
              hint="A CEL timestamp, e.g. timestamp(input.sendAt), or an ISO 8601 date."
              onChange={(until) => set({ until })}
            />
          ),
        },
      ]}
    />
  );
}
