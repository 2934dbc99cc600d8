import type { KnowledgeBase } from '@crewline/contracts';
import { Cpu, FileText, HardDrive, Layers } from 'lucide-react';

import { StatCard, StatCardGrid } from '@/components/stat-card';

import { embeddingProviderLabel } from '../knowledge-display';
import { formatBytes } from '../knowledge-files';

/** The knowledge base's figures, and the organization's storage beside its own size. */
export function KnowledgeStats({
  base,
  organizationBytes,
}: {
  base: KnowledgeBase;
  organizationBytes: number | null;
}) {
  return (
    <StatCardGrid aria-label="Knowledge base figures" role="region">
      <StatCard
        title="Documents"
        icon={FileText}
        value={base.documentCount.toLocaleString()}
        accent="bg-blue-500/10 text-blue-600 dark:text-blue-400"
      />
      <StatCard
        title="Chunks"
        icon={Layers}
        value={base.chunkCount.toLocaleString()}
        accent="bg-violet-500/10 text-violet-600 dark:text-violet-400"
      />
      <StatCard
        title="Size"
        icon={HardDrive}
        value={formatBytes(base.sizeBytes)}
        accent="bg-amber-500/10 text-amber-600 dark:text-amber-400"
      >
        {organizationBytes !== null && (
          <p className="text-xs text-muted-foreground">
            {formatBytes(organizationBytes)} used by your organization
          </p>
        )}
      </StatCard>
      <StatCard
        title="Embedding Model"
        icon={Cpu}
        value={
          <span className="block font-mono text-sm break-all sm:text-lg" title={base.embeddingModel}>
            {base.embeddingModel}
          </span>
        }
        accent="bg-teal-500/10 text-teal-600 dark:text-teal-400"
      >
        <p className="text-xs text-muted-foreground">
          {embeddingProviderLabel(base.embeddingProvider)} connection
          {base.dimensions ? ` · ${base.dimensions} dimensions` : ''}
        </p>
      </StatCard>
    </StatCardGrid>
  );
}
