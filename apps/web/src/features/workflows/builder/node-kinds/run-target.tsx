// What a map item or a loop pass runs (the contracts' RunTarget): one of the organization's agents
// asked a prompt template over `item`, `index` and `last`, or another of its workflows. Its name on
// the canvas (run-target-name.ts), and its fields in the Properties panel.
import type { RunTarget } from '@crewline/contracts';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useAgents } from '@/lib/queries/agents';
import { useWorkflows } from '@/lib/queries/workflows';
import { cn } from '@/lib/utils';

import { ExpressionField } from '../components/expression-field';
import { useBuilderStore } from '../store';

const DEFAULT_PROMPT = '{{ item }}';

type Mode = 'agent' | 'workflow';

function ModeSwitch({ mode, onChange }: { mode: Mode; onChange: (mode: Mode) => void }) {
  return (
    <div className="grid grid-cols-2 gap-1 rounded-lg bg-muted p-1" role="group" aria-label="Runs">
      {(['agent', 'workflow'] as const).map((option) => (
        <Button
          key={option}
          type="button"
          size="sm"
          variant="ghost"
          aria-pressed={mode === option}
          onClick={() => onChange(option)}
          className={cn('h-7', mode === option && 'bg-background shadow-sm hover:bg-background')}
        >
          {option === 'agent' ? 'An agent' : 'A workflow'}
        </Button>
      ))}
    </div>
  );
}

function AgentTarget({
  run,
  nodeId,
  nodeName,
  onChange,
}: {
  run: Extract<RunTarget, { agentId: string }> | undefined;
  nodeId: string;
  nodeName: string;
  onChange: (run: RunTarget, step: string | null) => void;
}) {
  const id = useId();
  const agents = useAgents();
  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={id}>Agent</Label>
        <Select
          value={run?.agentId ?? ''}
          onValueChange={(agentId) => onChange({ agentId, prompt: run?.prompt ?? DEFAULT_PROMPT }, null)}
        >
          <SelectTrigger id={id} className="w-full">
            <SelectValue placeholder={agents.isPending ? 'Loading agents…' : 'Choose an agent'} />
          </SelectTrigger>
          <SelectContent>
            {(agents.data ?? []).map((agent) => (
              <SelectItem key={agent.id} value={agent.id}>
                {agent.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {run && (
        <ExpressionField
          label="Prompt"
          multiline
          value={run.prompt}
          nodeId={nodeId}
          nodeName={nodeName}
          syntax="template"
          iteration
          hint="{{ item }} is the item (a loop's last pass), {{ index }} its place from 0."
          onChange={(prompt) => onChange({ ...run, prompt }, 'run:prompt')}
        />
      )}
    </>
  );
}

function WorkflowTarget({
  run,
  onChange,
}: {
  run: Extract<RunTarget, { workflowId: string }> | undefined;
  onChange: (run: RunTarget, step: string | null) => void;
}) {
  const id = useId();
  const workflows = useWorkflows();
  const current = useBuilderStore((s) => s.workflowId);
  // A workflow never runs itself.
  const others = (workflows.data ?? []).filter((w) => w.id !== current);
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Workflow</Label>
      <Select value={run?.workflowId ?? ''} onValueChange={(workflowId) => onChange({ workflowId }, null)}>
        <SelectTrigger id={id} className="w-full">
          <SelectValue placeholder={workflows.isPending ? 'Loading workflows…' : 'Choose a workflow'} />
        </SelectTrigger>
        <SelectContent>
          {others.map((workflow) => (
            <SelectItem key={workflow.id} value={workflow.id}>
              {workflow.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <p className="text-xs text-muted-foreground">
        It runs its newest version when the run started, with the item as its input.
      </p>
    </div>
  );
}

/** Choose what runs: an agent with its prompt, or a workflow. Until one is chosen the node has none. */
export function RunTargetFields({
  run,
  nodeId,
  nodeName,
  onChange,
}: {
  run: RunTarget | undefined;
  /** The map or loop node: its upstream is what the prompt may read. */
  nodeId: string;
  nodeName: string;
  onChange: (run: RunTarget | undefined, step: string | null) => void;
}) {
  // Which one is being chosen, before anything is (then the stored target says).
  const [chosen, setChosen] = useState<Mode>('agent');
  const mode: Mode = run ? ('workflowId' in run ? 'workflow' : 'agent') : chosen;
  return (
    <section className="space-y-2.5" aria-label="What runs">
      <h3 className="text-sm font-medium">Runs</h3>
      <ModeSwitch
        mode={mode}
        onChange={(next) => {
          setChosen(next);
          if (next !== mode) onChange(undefined, null);
        }}
      />
      {mode === 'agent' ? (
        <AgentTarget
          run={run && 'agentId' in run ? run : undefined}
          nodeId={nodeId}
          nodeName={nodeName}
          onChange={onChange}
        />
      ) : (
        <WorkflowTarget run={run && 'workflowId' in run ? run : undefined} onChange={onChange} />
      )}
    </section>
  );
}
