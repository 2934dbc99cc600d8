// "Test this node" (docs/product-rules.md, Workflows that decide): the Properties panel's button for a
// step, and its dialog, which runs the step alone (its unsaved changes included) with the last run's
// upstream data or typed sample data, without starting a run, and shows what it gave.
import {
  isStepKind,
  NODE_TEST_ITEMS,
  type ExecutionSummary,
  type NodeKind,
  type NodeTestResult,
} from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, FlaskConical, Loader2, XCircle } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { parseApiError } from '@/lib/api';
import { queryKeys } from '@/lib/queries/keys';
import { cn } from '@/lib/utils';

import { DataTree } from '@/features/runs/data-tree';
import { StepConsole } from '@/features/runs/step-console';
import { useTestNode } from '@/features/workflows/api/test-node';
import { toWorkflowNode } from '../builder-nodes';
import { nodeDisplayName } from '../node-messages';
import { useBuilderStore } from '../store';
import { readSample, resultFigures, sampleFor } from '../test-node';

type Source = 'run' | 'sample';

const PRE =
  'max-h-48 overflow-auto rounded-md border bg-muted/40 p-2.5 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap';

/** A value as CEL would write it: strings quoted, lists and maps as JSON. */
const valueText = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value));

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-1.5">
      <h3 className="text-[11px] font-semibold tracking-wide text-muted-foreground uppercase">{title}</h3>
      {children}
    </section>
  );
}

/** What the test gave: its status, figures and note, its text, its data as a tree, what it evaluated. */
function TestNodeResult({ result }: { result: NodeTestResult }) {
  const done = result.status === 'completed';
  return (
    <div className="space-y-3" data-testid="test-node-result" aria-live="polite">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span
          className={cn(
            'inline-flex items-center gap-1.5 font-medium',
            done ? 'text-emerald-700 dark:text-emerald-400' : 'text-destructive',
          )}
        >
          {done ? (
            <CheckCircle2 className="size-4" aria-hidden="true" />
          ) : (
            <XCircle className="size-4" aria-hidden="true" />
          )}
          {done ? 'Completed' : 'Failed'}
        </span>
        <span className="text-xs text-muted-foreground">{resultFigures(result)}</span>
        {result.runId && <span className="text-xs text-muted-foreground">with the last run’s data</span>}
      </div>
      {!done && (
        <p className="rounded-md border border-destructive/40 bg-destructive/5 p-2.5 text-sm text-destructive">
          {result.error}
        </p>
      )}
      {done && result.note && <p className="text-xs text-muted-foreground">{result.note}</p>}
      {/* A Code step's text is its returned value as JSON: the Data below shows it. */}
      {done && result.content && result.evaluation?.kind !== 'code' && (
        <Section title="Text">
          <pre className={PRE}>{result.content}</pre>
        </Section>
      )}
      {done && result.evaluation && result.evaluation.evaluated.length > 0 && (
        <Section title="Evaluated">
          <ul
            className="divide-y overflow-hidden rounded-md border text-xs"
            data-testid="test-node-evaluated"
          >
            {result.evaluation.evaluated.map((entry, index) => (
              <li key={index} className="space-y-1 px-2.5 py-2">
                <p className="font-mono break-words">
                  <span className="font-semibold">{entry.name}</span> ={' '}
                  <span className={entry.error ? 'text-destructive' : undefined}>
                    {entry.error ?? valueText(entry.value)}
                  </span>
                </p>
                <code className="block font-mono break-words whitespace-pre-wrap text-muted-foreground">
                  {entry.expression}
                </code>
              </li>
            ))}
          </ul>
        </Section>
      )}
      {done && result.evaluation?.logs && (
        <Section title="Console">
          <StepConsole logs={result.evaluation.logs} />
        </Section>
      )}
      {done && result.data !== null && result.data !== undefined && (
        <Section title="Data">
          <DataTree value={result.data} label="Test data" />
        </Section>
      )}
    </div>
  );
}

/** What the kind's test does beyond looking: said before it runs. */
function KindNotice({ kind }: { kind: NodeKind }) {
  if (kind === 'tool')
    return (
      <Alert>
        <AlertTriangle aria-hidden="true" />
        <AlertDescription>Test calls the tool for real, with the arguments it shows.</AlertDescription>
      </Alert>
    );
  if (kind === 'map' || kind === 'loop')
    return (
      <p className="text-xs text-muted-foreground">
        {kind === 'map'
          ? `A test runs the first ${NODE_TEST_ITEMS} items of the list.`
          : `A test runs at most ${NODE_TEST_ITEMS} passes.`}
      </p>
    );
  return null;
}

function TestNodeDialog({
  workflowId,
  nodeId,
  onOpenChange,
}: {
  workflowId: string;
  nodeId: string;
  onOpenChange(open: boolean): void;
}) {
  const node = useBuilderStore((s) => s.nodes.find((n) => n.id === nodeId));
  const [initialSample] = useState(() => {
    const { nodes, edges } = useBuilderStore.getState();
    return sampleFor(nodeId, nodes, edges);
  });
  const [sample, setSample] = useState(initialSample);
  const [sampleError, setSampleError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Source | null>(null);
  const latest = useQuery<ExecutionSummary[]>({
    queryKey: queryKeys.executions.list({ workflowId, limit: 1 }),
    staleTime: 0,
  });
  const hasRun = (latest.data?.length ?? 0) > 0;
  const source: Source = chosen ?? (hasRun ? 'run' : 'sample');
  const test = useTestNode();
  const sampleId = useId();
  if (!node) return null;
  const kind = (node.type ?? 'agent') as NodeKind;
  const refused = test.error ? (parseApiError(test.error).message ?? 'The test could not run.') : null;

  const run = () => {
    const body: { node: ReturnType<typeof toWorkflowNode>; context?: object } = {
      node: toWorkflowNode(node),
    };
    if (source === 'sample') {
      const read = readSample(sample);
      if ('error' in read) {
        setSampleError(read.error);
        return;
      }
      body.context = read.context;
    }
    setSampleError(null);
    test.mutate({ workflowId, nodeId, body });
  };

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl" data-testid="test-node-dialog">
        <DialogHeader>
          <DialogTitle>Test “{nodeDisplayName(node)}”</DialogTitle>
          <DialogDescription>
            Runs this step alone, with your unsaved changes, without starting a run. Nothing is stored.
          </DialogDescription>
        </DialogHeader>
        <KindNotice kind={kind} />
        <Tabs value={source} onValueChange={(value) => setChosen(value as Source)}>
          <TabsList className="w-full">
            <TabsTrigger value="run">Use the last run’s data</TabsTrigger>
            <TabsTrigger value="sample">Sample data</TabsTrigger>
          </TabsList>
          <TabsContent value="run" className="pt-2 text-sm text-muted-foreground">
            {latest.isPending
              ? 'Looking for the last run…'
              : hasRun
                ? 'The step reads the input and the upstream answers of the newest run that has them.'
                : 'This workflow has not run yet: use sample data, or run the workflow first.'}
          </TabsContent>
          <TabsContent value="sample" className="space-y-1.5 pt-2">
            <Label htmlFor={sampleId}>What the step reads</Label>
            <Textarea
              id={sampleId}
              value={sample}
              spellCheck={false}
              aria-invalid={sampleError !== null}
              aria-describedby={`${sampleId}-help`}
              className="max-h-64 min-h-32 font-mono text-xs"
              onChange={(event) => setSample(event.target.value)}
            />
            <p
              id={`${sampleId}-help`}
              className={cn('text-xs', sampleError ? 'text-destructive' : 'text-muted-foreground')}
            >
              {sampleError ?? (
                <>
                  JSON: <code>input</code> (what the run starts with), <code>nodes.&lt;id&gt;</code> (
                  <code>content</code>, <code>data</code>) and <code>vars</code>.
                </>
              )}
            </p>
          </TabsContent>
        </Tabs>
        {refused && (
          <Alert variant="destructive">
            <XCircle aria-hidden="true" />
            <AlertDescription>{refused}</AlertDescription>
          </Alert>
        )}
        {test.data && !test.isPending && <TestNodeResult result={test.data} />}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          <Button onClick={run} disabled={test.isPending}>
            {test.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <FlaskConical aria-hidden="true" />
            )}
            {test.isPending ? 'Testing…' : 'Run test'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The Properties panel's "Test this node", for steps only; a workflow never saved has nothing to test against yet. */
export function TestNodeButton({ nodeId }: { nodeId: string }) {
  const [open, setOpen] = useState(false);
  const type = useBuilderStore((s) => s.nodes.find((n) => n.id === nodeId)?.type ?? 'agent');
  const workflowId = useBuilderStore((s) => s.workflowId);
  // A test cannot wait: an approval or a delay is tried in a run.
  if (!isStepKind(type as NodeKind) || type === 'approval' || type === 'delay') return null;
  return (
    <div className="space-y-1">
      <Button
        variant="outline"
        size="sm"
        className="w-full"
        disabled={!workflowId}
        onClick={() => setOpen(true)}
      >
        <FlaskConical aria-hidden="true" />
        Test this node
      </Button>
      {!workflowId && <p className="text-xs text-muted-foreground">Save the workflow to test its steps.</p>}
      {open && workflowId && (
        <TestNodeDialog workflowId={workflowId} nodeId={nodeId} onOpenChange={setOpen} />
      )}
    </div>
  );
}
