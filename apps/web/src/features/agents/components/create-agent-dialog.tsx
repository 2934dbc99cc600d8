import { Plug } from 'lucide-react';
import { useState } from 'react';

import { PlanLimitAlert } from '@/components/plan-limit-notice';
import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { readPlanLimitError, type PlanLimitInfo } from '@/lib/billing';

import { emptyAgentFormValues } from '../agent-form-values';
import { useSetAgentKnowledgeBases } from '../api/agent-knowledge';
import { useCreateAgent } from '../api/agents';
import { AgentForm } from './agent-form';
import { AgentKnowledgeSection } from './agent-knowledge-section';

const FORM_ID = 'create-agent-form';

/** The Tools tab of an agent that does not exist yet: its knowledge can be picked already. */
function ToolsAfterSave({
  knowledge,
  onKnowledgeChange,
}: {
  knowledge: string[];
  onKnowledgeChange: (ids: string[]) => void;
}) {
  return (
    <div className="space-y-6">
      <AgentKnowledgeSection picked={knowledge} onChange={onKnowledgeChange} />
      <ToolsNote />
    </div>
  );
}

function ToolsNote() {
  return (
    <div className="flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed px-6 py-6 text-center">
      <span className="grid size-11 place-items-center rounded-full bg-muted text-muted-foreground">
        <Plug className="size-5" aria-hidden="true" />
      </span>
      <div className="space-y-1">
        <p className="font-medium">Save the agent first to manage its tools</p>
        <p className="text-sm text-muted-foreground">
          Once the agent is created, open it from its card to connect and configure tools.
        </p>
      </div>
    </div>
  );
}

/** The create dialog: four tabs, 'Agent Created' on success. */
export function CreateAgentDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const createAgent = useCreateAgent();
  const setKnowledge = useSetAgentKnowledgeBases();
  // The knowledge bases picked before the agent exists: saved on it once it is created.
  const [knowledge, setKnowledgeIds] = useState<string[]>([]);
  // A fresh form (via the key) every time the dialog opens; the closing one keeps its content
  // while it fades out.
  const [session, setSession] = useState(0);
  const [wasOpen, setWasOpen] = useState(open);
  const [defaultValues] = useState(emptyAgentFormValues);
  // A 402 plan_limit: the server's message with 'Upgrade', above the buttons.
  const [planLimit, setPlanLimit] = useState<PlanLimitInfo | null>(null);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setSession((value) => value + 1);
      setPlanLimit(null);
      setKnowledgeIds([]);
    }
  }

  const changeOpen = (next: boolean) => {
    if (createAgent.isPending) return;
    onOpenChange(next);
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="gap-5 sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Create New Agent</DialogTitle>
          <DialogDescription>
            Give the agent a role and a goal, pick its model and decide how it behaves.
          </DialogDescription>
        </DialogHeader>
        <AgentForm
          key={session}
          mode="create"
          formId={FORM_ID}
          defaultValues={defaultValues}
          disabled={createAgent.isPending}
          contentClassName="sm:min-h-[27rem]"
          toolsContent={<ToolsAfterSave knowledge={knowledge} onKnowledgeChange={setKnowledgeIds} />}
          onSubmit={(payload, applyServerErrors) => {
            setPlanLimit(null);
            createAgent.mutate(payload, {
              onSuccess: (agent) => {
                if (knowledge.length > 0)
                  setKnowledge.mutate({ agentId: agent.id, knowledgeBaseIds: knowledge });
                onOpenChange(false);
              },
              onError: (error) => {
                setPlanLimit(readPlanLimitError(error));
                applyServerErrors(error);
              },
            });
          }}
          footer={
            <>
              <PlanLimitAlert info={planLimit} />
              <DialogFooter>
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => changeOpen(false)}
                  disabled={createAgent.isPending}
                >
                  Cancel
                </Button>
                <Button type="submit" disabled={createAgent.isPending} aria-busy={createAgent.isPending}>
                  {createAgent.isPending && <Spinner />}
                  {createAgent.isPending ? 'Creating...' : 'Create Agent'}
                </Button>
              </DialogFooter>
            </>
          }
        />
      </DialogContent>
    </Dialog>
  );
}
