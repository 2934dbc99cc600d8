// The builder screen: header, left panel (Agents / Steps / Settings / Properties) and the canvas, plus the
// save, activate, validate and import flows, Ctrl+S saving in place, and the unsaved-changes guard
// (docs/product-rules.md).
import type { Workflow } from '@crewline/contracts';
import { ReactFlowProvider } from '@xyflow/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useBlocker, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';

import { Spinner } from '@/components/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';
import { useAgents } from '@/lib/queries/agents';
import { useTools } from '@/lib/queries/tools';
import { useWorkflow } from '@/lib/queries/workflows';
import { queryKeys } from '@/lib/queries/keys';

import {
  evaluationFailedOf,
  evaluationRunningOf,
  savedWorkflowOf,
} from '@/features/workflows/activation-answers';
import { useCreateWorkflow } from '@/features/workflows/api/create-workflow';
import { TriggerErrorNotice } from '@/features/workflows/list/trigger-error-notice';
import { activatedToast, resumedToast } from '@/features/workflows/workflow-actions';
import { useUpdateWorkflow } from '@/features/workflows/api/update-workflow';
import { gateOf } from '../activation-gate';
import { useBuilderShortcuts } from '../canvas/use-builder-shortcuts';
import { builderSnapshot, isDirty, useBuilderStore } from '../store';
import { useRunProgressStore } from '../run-progress';
import { useFollowWorkflowRuns } from '../use-run-progress';
import type { SidebarTab } from '../types';
import { ACTIVATION_FAILED_TOAST } from '../../workflow-actions';
import {
  buildPayload,
  runAction,
  SAVE_FAILED_TOAST,
  type SaveIntent,
  saveStatus,
  saveSuccessTitle,
} from '../workflow-save';
import { BuilderCanvas } from './builder-canvas';
import { BuilderHeader } from './builder-header';

// What the first screen (the canvas and the toolbar) does not draw loads when it is first wanted: the
// dialogs when they first open, the sidebar's tabs when shown, the run panel with a run and Validate's
// report with the first report (the builder's initial JavaScript budget, scripts/bundle-size.ts).
const RunWorkflowDialog = lazy(() =>
  import('./run-workflow-dialog').then((m) => ({ default: m.RunWorkflowDialog })),
);
const ActivationGateFlow = lazy(() =>
  import('./activation-gate-dialogs').then((m) => ({ default: m.ActivationGateFlow })),
);
const ShortcutSheet = lazy(() =>
  import('../canvas/shortcut-sheet').then((m) => ({ default: m.ShortcutSheet })),
);
const LeaveBuilderDialog = lazy(() =>
  import('./leave-builder-dialog').then((m) => ({ default: m.LeaveBuilderDialog })),
);
const ConfirmDialog = lazy(() =>
  import('@/components/confirm-dialog').then((m) => ({ default: m.ConfirmDialog })),
);
const ValidationPanel = lazy(() =>
  import('./validation-panel').then((m) => ({ default: m.ValidationPanel })),
);
const RunPanel = lazy(() => import('./run-panel').then((m) => ({ default: m.RunPanel })));
const StepsPalette = lazy(() => import('./steps-palette').then((m) => ({ default: m.StepsPalette })));
const AgentsTab = lazy(() => import('./agents-tab').then((m) => ({ default: m.AgentsTab })));
const SettingsTab = lazy(() => import('./settings-tab').then((m) => ({ default: m.SettingsTab })));
const PropertiesTab = lazy(() => import('./properties-tab').then((m) => ({ default: m.PropertiesTab })));

/** The checks run the engine's validation (its expressions and cron parser): loaded when first needed. */
const loadChecks = () => import('../workflow-checks');

/** True from the first time `open` is true on: a lazy dialog mounts then and stays, so it can close as before. */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

function TabLoading() {
  return (
    <div className="flex justify-center py-6" data-testid="builder-part-loading">
      <Spinner className="size-5 text-muted-foreground" />
    </div>
  );
}

const ACTIVATE_AND_RUN_TEXT =
  'Only an active workflow can run. Activate and run saves your changes, activates the workflow and opens Execute.';

/** Whether an id is in the organization's list (agents, tools); until the list arrives, the server checks. */
function useExists(list: { id: string }[] | undefined) {
  return useMemo(() => {
    const ids = new Set((list ?? []).map((a) => a.id));
    return (id: string) => (list ? ids.has(id) : true);
  }, [list]);
}

/** The saved workflow's last trigger failure (it refreshes when a trigger fails), above the editor. */
function SavedTriggerError() {
  const workflowId = useBuilderStore((s) => s.workflowId);
  const saved = useWorkflow(workflowId ?? undefined);
  return <TriggerErrorNotice error={saved.data?.lastTriggerError ?? null} className="mx-4 mt-3 md:mx-6" />;
}

function Sidebar() {
  const tab = useBuilderStore((s) => s.tab);
  const setTab = useBuilderStore((s) => s.setTab);
  return (
    <aside className="flex w-full shrink-0 flex-col border-b bg-background md:min-h-0 md:w-80 md:border-r md:border-b-0">
      <Tabs
        value={tab}
        onValueChange={(v) => setTab(v as SidebarTab)}
        className="flex min-h-0 flex-1 flex-col gap-0"
      >
        <div className="border-b p-3">
          <TabsList className="w-full">
            {/* Words only: four tabs with icons do not fit the panel's width. */}
            <TabsTrigger value="agents">Agents</TabsTrigger>
            <TabsTrigger value="steps">Steps</TabsTrigger>
            <TabsTrigger value="settings">Settings</TabsTrigger>
            <TabsTrigger value="properties">Properties</TabsTrigger>
          </TabsList>
        </div>
        <div className="max-h-[40svh] min-h-0 flex-1 overflow-y-auto p-4 md:max-h-none">
          <TabsContent value="agents">
            <Suspense fallback={<TabLoading />}>
              <AgentsTab />
            </Suspense>
          </TabsContent>
          <TabsContent value="steps">
            <Suspense fallback={<TabLoading />}>
              <StepsPalette />
            </Suspense>
          </TabsContent>
          <TabsContent value="settings">
            <Suspense fallback={<TabLoading />}>
              <SettingsTab />
            </Suspense>
          </TabsContent>
          <TabsContent value="properties">
            <Suspense fallback={<TabLoading />}>
              <PropertiesTab />
            </Suspense>
          </TabsContent>
        </div>
      </Tabs>
    </aside>
  );
}

export function WorkflowBuilder({ title }: { title: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const agents = useAgents();
  const agentExists = useExists(agents.data);
  // Read only when the canvas has a tool step (the list is not the builder's otherwise).
  const hasToolStep = useBuilderStore((s) => s.nodes.some((n) => n.type === 'tool'));
  const toolExists = useExists(useTools({ enabled: hasToolStep }).data);
  const createWorkflow = useCreateWorkflow();
  const updateWorkflow = useUpdateWorkflow();
  const importWorkflow = useCreateWorkflow();
  const [isStarting, setIsStarting] = useState(false);
  const runOpen = useBuilderStore((s) => s.runOpen);
  const setRunOpen = useBuilderStore((s) => s.setRunOpen);
  const [activatePromptOpen, setActivatePromptOpen] = useState(false);
  const [pendingIntent, setPendingIntent] = useState<SaveIntent | null>(null);
  const [reportOpen, setReportOpen] = useState(false);
  const report = useBuilderStore((s) => s.validation);
  const setValidation = useBuilderStore((s) => s.setValidation);
  const indicator = useBuilderStore((s) => s.saveIndicator);
  const setIndicator = useBuilderStore((s) => s.setSaveIndicator);
  const setGateFlow = useBuilderStore((s) => s.setGateFlow);
  const pendingRef = useRef(false);
  const shortcutsOpen = useBuilderStore((s) => s.shortcutsOpen);
  const setShortcutsOpen = useBuilderStore((s) => s.setShortcutsOpen);
  // Runs of the saved workflow mark its nodes live (a new, unsaved workflow has none).
  useFollowWorkflowRuns(useBuilderStore((s) => s.workflowId));

  const close = useCallback(() => void navigate('/workflows'), [navigate]);

  const onValidate = useCallback(async () => {
    const { validateSnapshot } = await loadChecks();
    const result = validateSnapshot(builderSnapshot(), agentExists, toolExists);
    setValidation(result);
    setReportOpen(true);
    if (result.errors.length > 0) {
      toast({ variant: 'destructive', title: 'Validation Failed', description: result.errors.join(', ') });
    } else {
      toast({
        title: 'Validation Passed',
        description:
          result.warnings.length > 0
            ? `${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}: ${result.warnings.join(', ')}`
            : 'The workflow is ready to activate.',
      });
    }
  }, [agentExists, toolExists, setValidation]);

  // Once validated, the messages follow the edits (the panels show them at their nodes and fields).
  const validated = report !== null;
  useEffect(() => {
    if (!validated) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = useBuilderStore.subscribe((next, prev) => {
      if (next.nodes === prev.nodes && next.edges === prev.edges && next.settings === prev.settings) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        void loadChecks().then(({ validateSnapshot }) =>
          setValidation(validateSnapshot(builderSnapshot(), agentExists, toolExists)),
        );
      }, 300);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [validated, agentExists, toolExists, setValidation]);

  /**
   * One save for every button and Ctrl+S; `stay` keeps the user in the builder (save in place).
   * Answers whether the workflow was saved.
   */
  const save = useCallback(
    async (intent: SaveIntent, { stay = false }: { stay?: boolean } = {}): Promise<boolean> => {
      const { preSaveCheck, validateSnapshot } = await loadChecks();
      // A second Ctrl+S while a save is on its way would create the new workflow twice.
      if (pendingRef.current) return false;
      const state = useBuilderStore.getState();
      const snapshot = builderSnapshot(state);
      const blocking = preSaveCheck(snapshot, agentExists, toolExists);
      if (blocking) {
        toast({ variant: 'destructive', ...blocking });
        setValidation(validateSnapshot(snapshot, agentExists, toolExists));
        return false;
      }
      const isNew = !state.workflowId;
      // The server keeps the note with the version the save records (an active workflow) and drops it otherwise.
      const versionNote = state.versionNote.trim();
      const payload = {
        ...buildPayload(snapshot, saveStatus(intent, isNew)),
        ...(versionNote ? { versionNote } : {}),
      };
      // The gate in force is the saved one; a gate set in this very save holds it when none was saved.
      const gate =
        gateOf((state.baseline ?? snapshot).settings.activationGate) ??
        gateOf(snapshot.settings.activationGate);
      /** What was sent is now the saved working copy: leaving no longer warns (unless edits came in meanwhile). */
      const markSaved = (saved: Pick<Workflow, 'id' | 'status'>) => {
        useBuilderStore.getState().markSaved(snapshot, saved, stay);
        if (state.versionNote === useBuilderStore.getState().versionNote) {
          useBuilderStore.getState().setVersionNote('');
        }
      };
      /** Behind the gate the working copy is saved before the verdict; the workflow keeps its status. */
      const keptBehindGate = (id: string) => {
        markSaved({ id, status: state.existingStatus ?? 'draft' });
        queryClient.removeQueries({ queryKey: queryKeys.workflows.detail(id) });
        setActivatePromptOpen(false);
        if (stay) setIndicator('saved');
      };
      setPendingIntent(intent);
      pendingRef.current = true;
      if (stay) setIndicator('saving');
      try {
        const answer = state.workflowId
          ? await updateWorkflow.mutateAsync({ id: state.workflowId, input: payload })
          : await createWorkflow.mutateAsync(payload);
        const running = evaluationRunningOf(answer);
        if (running && state.workflowId) {
          // Activate behind the gate: the evaluation runs first; the builder follows it.
          keptBehindGate(state.workflowId);
          setGateFlow({
            step: 'running',
            evalRunId: running.evalRunId,
            minPassRate: gate?.minPassRate ?? null,
            retried: false,
          });
          return false;
        }
        const saved = savedWorkflowOf(answer);
        if (!saved) throw new Error('The save answered no workflow');
        queryClient.removeQueries({ queryKey: queryKeys.workflows.detail(saved.id) });
        markSaved(saved);
        if (stay) {
          setIndicator('saved');
          if (isNew) void navigate(`/workflows/edit/${encodeURIComponent(saved.id)}`, { replace: true });
          return true;
        }
        toast({
          title: saveSuccessTitle(intent, isNew),
          description:
            intent === 'activate'
              ? `"${payload.name}" is active and ready to run.`
              : `"${payload.name}" has been saved.`,
        });
        void navigate('/workflows');
        return true;
      } catch (error) {
        if (stay) setIndicator(null);
        const refusal = evaluationFailedOf(error);
        if (refusal && state.workflowId) {
          // The gate refused the activation; the changes were saved all the same.
          keptBehindGate(state.workflowId);
          setGateFlow({ step: 'refused', refusal });
          return false;
        }
        const parsed = parseApiError(error);
        if (parsed.status === 400 && parsed.errors.length > 0) {
          setValidation({ errors: parsed.errors.map((e) => e.message), warnings: [] });
          toast({
            variant: 'destructive',
            title: 'Validation Failed',
            description: parsed.errors.map((e) => e.message).join(', '),
          });
        } else {
          toast({
            ...(intent === 'activate' ? ACTIVATION_FAILED_TOAST : SAVE_FAILED_TOAST),
            variant: 'destructive',
          });
        }
        return false;
      } finally {
        pendingRef.current = false;
        setPendingIntent(null);
      }
    },
    [
      agentExists,
      toolExists,
      createWorkflow,
      updateWorkflow,
      navigate,
      queryClient,
      setIndicator,
      setValidation,
      setGateFlow,
    ],
  );

  /** Run: an active workflow opens Execute; any other first asks to activate it (runAction). */
  const onRun = useCallback(() => {
    if (runAction(useBuilderStore.getState().existingStatus) === 'run') setRunOpen(true);
    else setActivatePromptOpen(true);
  }, [setRunOpen]);

  /** Saves the canvas as active (a paused workflow resumes), stays in the builder and opens Execute. */
  const activateAndRun = useCallback(async () => {
    const { existingStatus, settings } = useBuilderStore.getState();
    if (!(await save('activate', { stay: true }))) return;
    setActivatePromptOpen(false);
    toast((existingStatus === 'paused' ? resumedToast : activatedToast)(settings.name.trim()));
    setRunOpen(true);
  }, [save, setRunOpen]);

  useBuilderShortcuts({
    onSave: () => void save('draft', { stay: true }),
    onHelp: () => setShortcutsOpen(true),
  });

  // 'Saved' stays until the next edit.
  useEffect(() => {
    if (indicator !== 'saved') return;
    return useBuilderStore.subscribe((next, prev) => {
      if (next.nodes !== prev.nodes || next.edges !== prev.edges || next.settings !== prev.settings) {
        if (isDirty(next)) setIndicator(null);
      }
    });
  }, [indicator, setIndicator]);

  // Closing the tab or leaving the builder in the app with unsaved changes asks first.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirty()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && isDirty(),
  );
  // The run panel shows while a run is followed (it draws nothing before).
  const followedRun = useRunProgressStore((s) => s.executionId !== null);
  const runOpened = useOpenedOnce(runOpen);
  const activatePromptOpened = useOpenedOnce(activatePromptOpen);
  const shortcutsOpened = useOpenedOnce(shortcutsOpen);
  const gateFlowOpened = useOpenedOnce(useBuilderStore((s) => s.gateFlow !== null));
  const leaveOpened = useOpenedOnce(blocker.state === 'blocked');

  const onImportFile = useCallback(
    async (file: File) => {
      // Importing is rare: its parser loads with the first file.
      const { parseImport } = await import('../workflow-file');
      const result = parseImport(await file.text());
      if (!result.ok) {
        toast({ variant: 'destructive', title: 'Import Failed', description: result.error });
        return;
      }
      try {
        const created = await importWorkflow.mutateAsync(result.input);
        toast({ title: 'Workflow Imported', description: `"${created.name}" was created as a draft.` });
        queryClient.setQueryData(queryKeys.workflows.detail(created.id), created);
        void navigate(`/workflows/edit/${encodeURIComponent(created.id)}`);
      } catch (error) {
        const parsed = parseApiError(error);
        toast({
          variant: 'destructive',
          title: 'Import Failed',
          description:
            parsed.errors.length > 0
              ? parsed.errors.map((e) => e.message).join(', ')
              : 'Failed to import workflow',
        });
      }
    },
    [importWorkflow, navigate, queryClient],
  );

  return (
    <ReactFlowProvider>
      <div className="flex min-h-[calc(100svh-4rem-1px)] flex-1 flex-col bg-background md:h-[calc(100svh-4rem-1px)] md:flex-none md:overflow-hidden">
        <BuilderHeader
          title={title}
          onValidate={() => void onValidate()}
          onSave={() => void save('draft')}
          onActivate={() => void save('activate')}
          onClose={close}
          onRun={onRun}
          isStarting={isStarting}
          onImportFile={(file) => void onImportFile(file)}
          isSaving={pendingIntent === 'draft'}
          isActivating={pendingIntent === 'activate'}
          isImporting={importWorkflow.isPending}
        />
        <SavedTriggerError />
        <div className="flex min-h-0 flex-1 flex-col md:flex-row">
          <Sidebar />
          {/* On a phone the canvas comes first, right below the header; the panels follow it. */}
          <div className="flex min-h-0 flex-1 flex-col max-md:order-first">
            <div className="relative min-h-[28rem] flex-1 md:min-h-48">
              <div className="absolute inset-0">
                <BuilderCanvas />
              </div>
              {reportOpen && report && (
                <Suspense fallback={null}>
                  <ValidationPanel report={report} onClose={() => setReportOpen(false)} />
                </Suspense>
              )}
            </div>
            {followedRun && (
              <Suspense fallback={null}>
                <RunPanel />
              </Suspense>
            )}
          </div>
        </div>
      </div>
      {shortcutsOpened && (
        <Suspense fallback={null}>
          <ShortcutSheet open={shortcutsOpen} onOpenChange={setShortcutsOpen} />
        </Suspense>
      )}
      {activatePromptOpened && (
        <Suspense fallback={null}>
          <ConfirmDialog
            title="This workflow is not active."
            description={ACTIVATE_AND_RUN_TEXT}
            open={activatePromptOpen}
            onOpenChange={setActivatePromptOpen}
            pending={pendingIntent === 'activate'}
            onConfirm={() => void activateAndRun()}
            confirmLabel="Activate and run"
            pendingLabel="Activating..."
          />
        </Suspense>
      )}
      {gateFlowOpened && (
        <Suspense fallback={null}>
          <ActivationGateFlow />
        </Suspense>
      )}
      {runOpened && (
        <Suspense fallback={null}>
          <RunWorkflowDialog open={runOpen} onOpenChange={setRunOpen} onStartingChange={setIsStarting} />
        </Suspense>
      )}
      {leaveOpened && (
        <Suspense fallback={null}>
          <LeaveBuilderDialog blocker={blocker} />
        </Suspense>
      )}
    </ReactFlowProvider>
  );
}
