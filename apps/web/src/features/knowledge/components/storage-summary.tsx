import type { KnowledgeBase } from '@crewline/contracts';
import { Database, FileText, Layers, Library } from 'lucide-react';

import { StatCard, StatCardGrid } from '@/components/stat-card';

import { storageTotals } from '../knowledge-display';
import { formatBytes } from '../knowledge-files';

/** The organization's knowledge storage: knowledge bases, documents, chunks and bytes. */
export function StorageSummary({ bases }: { bases: readonly KnowledgeBase[] }) {
  const totals = storageTotals(bases);
  return (
    <StatCardGrid aria-label="Organization storage" role="region">
      <StatCard
        title="Knowledge Bases"
        icon={Library}
        value={totals.knowledgeBases}
        accent="bg-teal-500/10 text-teal-600 dark:text-teal-400"
      />
      <StatCard
        title="Documents"
        icon={FileText}
        value={totals.documents.toLocaleString()}
        accent="bg-blue-500/10 text-blue-600 dark:text-blue-400"
      />
      <StatCard
        title="Chunks"
        icon={Layers}
        value={totals.chunks.toLocaleString()}
        accent="bg-violet-500/10 text-violet-600 dark:text-violet-400"
      />
      <StatCard
        title="Storage Used"
        icon={Database}
        value={formatBytes(totals.bytes)}
        accent="bg-amber-500/10 text-amber-600 dark:text-amber-400"
      >
        <p className="text-xs text-muted-foreground">Text of all documents in your organization</p>
      </StatCard>
    </StatCardGrid>
  );
}
