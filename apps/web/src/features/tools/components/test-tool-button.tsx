import type { Tool } from '@crewline/contracts';
import { FlaskConical } from 'lucide-react';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';

import { useTestTool } from '../api/test-tool';

/**
 * The Test action of a saved Vector Store tool: the server checks its knowledge base, or reaches its
 * Pinecone index with its key and compares dimensions, and the answer is shown as a toast.
 */
export function TestToolButton({ tool }: { tool: Tool }) {
  const test = useTestTool();
  const run = () =>
    test.mutate(tool.id, {
      onSuccess: (result) =>
        toast(
          result.ok
            ? { title: `${tool.name} works`, description: result.message }
            : { variant: 'destructive', title: `${tool.name} cannot search`, description: result.message },
        ),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: `Could not test ${tool.name}`,
          description: getErrorMessage(error, 'Try again.'),
        }),
    });

  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={`Test ${tool.name}`}
          disabled={test.isPending}
          onClick={run}
        >
          {test.isPending ? <Spinner className="size-4" /> : <FlaskConical aria-hidden="true" />}
        </Button>
      </TooltipTrigger>
      <TooltipContent>Test</TooltipContent>
    </Tooltip>
  );
}
