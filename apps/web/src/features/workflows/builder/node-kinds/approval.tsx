// The Approval node on the canvas: what it asks, its policy and timeout in words, then one row per
// outcome, each with its own source handle (the edge's sourceHandle): approved, rejected and, when the
// timeout takes a path of its own, timeout.
import { useUpdateNodeInternals, type NodeProps } from '@xyflow/react';
import { UserCheck } from 'lucide-react';
import { memo, useEffect } from 'react';

import type { BuilderNode } from '../types';
import {
  APPROVAL_PATH_LABELS,
  approvalDraftOf,
  approvalPaths,
  deciderModeOf,
  policyWords,
  type ApprovalDraft,
} from './approval-data';
import { lazyPanel } from './lazy-panel';
import { shortDuration } from './duration';
import { KindCard } from './kind-card';
import { PathRow } from './path-row';
import type { BuilderNodeKind } from './types';

const ACCENT = '#2563eb';

const ROLE_WORDS = { owner: 'owners', admin: 'admins', member: 'members' } as const;

/** Who decides, in a few words: 'Any member', '2 members', 'Admins or owners'. */
function deciderWords(assignees: ApprovalDraft['assignees']): string {
  switch (deciderModeOf(assignees)) {
    case 'named': {
      const count = assignees?.userIds?.length ?? 0;
      return count === 0 ? 'Any member' : count === 1 ? '1 member' : `${count} members`;
    }
    case 'roles': {
      const words = (assignees?.roles ?? []).map((r) => ROLE_WORDS[r]).join(' or ');
      return words ? words[0]!.toUpperCase() + words.slice(1) : 'Any member';
    }
    default:
      return 'Any member';
  }
}

function ApprovalNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const draft = approvalDraftOf(data);
  const paths = approvalPaths(draft);
  const updateNodeInternals = useUpdateNodeInternals();
  // The timeout handle comes and goes with the timeout's path: React Flow measures the handles again.
  const handles = paths.join('\n');
  useEffect(() => updateNodeInternals(id), [id, handles, updateNodeInternals]);
  const { timeout } = draft;
  return (
    <KindCard
      id={id}
      kind="approval"
      label={data.label}
      Icon={UserCheck}
      accent={ACCENT}
      selected={selected}
      sourceHandle={false}
      className="w-60"
    >
      <div className="space-y-0.5 border-t px-3 py-2 text-[11px]">
        {draft.title && (
          <div className="truncate font-mono" title={draft.title}>
            {draft.title}
          </div>
        )}
        <div className="truncate text-muted-foreground">
          {policyWords(draft.policy)} · {deciderWords(draft.assignees)}
        </div>
        {timeout && (
          <div className="truncate text-muted-foreground">
            {timeout.onTimeout === 'branch'
              ? `Times out after ${shortDuration(timeout.seconds)}`
              : `Rejects after ${shortDuration(timeout.seconds)}`}
          </div>
        )}
      </div>
      {paths.map((path) => (
        <PathRow key={path} handle={path} label={APPROVAL_PATH_LABELS[path]} muted={path === 'timeout'} />
      ))}
    </KindCard>
  );
}

export const approvalKind: BuilderNodeKind<'approval'> = {
  kind: 'approval',
  Node: memo(ApprovalNodeComponent),
  Icon: UserCheck,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: lazyPanel(
    () => import('./approval-panel'),
    (m) => m.ApprovalPanelSettings,
  ),
};
