import { PackageOpen } from 'lucide-react';

import { Spinner } from '@/components/spinner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

import { useSeedTemplates } from '../api/templates';

function missingText(missing: { workflows: boolean; agents: boolean }): string {
  if (missing.workflows && missing.agents) return 'The sample workflow and agent templates are not loaded.';
  if (missing.workflows) return 'The sample workflow templates are not loaded.';
  return 'The sample agent templates are not loaded.';
}

/** When the shipped workflow or agent templates are missing: Load Sample Templates brings them back. */
export function SeedTemplatesAlert({ missing }: { missing: { workflows: boolean; agents: boolean } }) {
  const seed = useSeedTemplates();
  return (
    <Alert
      className="border-sky-500/40 bg-sky-500/5 [&>svg]:text-sky-600 dark:[&>svg]:text-sky-400"
      data-testid="seed-templates-alert"
    >
      <PackageOpen aria-hidden="true" />
      <AlertTitle>Sample templates are missing</AlertTitle>
      <AlertDescription className="gap-3 sm:flex sm:items-center sm:justify-between">
        <p>{missingText(missing)} Load them to start from proven workflows and agents.</p>
        <Button
          type="button"
          size="sm"
          onClick={() => seed.mutate()}
          disabled={seed.isPending}
          aria-busy={seed.isPending}
          className="shrink-0"
        >
          {seed.isPending && <Spinner />}
          {seed.isPending ? 'Loading...' : 'Load Sample Templates'}
        </Button>
      </AlertDescription>
    </Alert>
  );
}
