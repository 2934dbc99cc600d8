// The builder's header: title, name field, badges (process, trigger, estimate) and the actions.
import { versionNoteMaxLength } from '@crewline/contracts';
import { countAgentNodes, estimateMinutes } from '@crewline/engine';
import {
  ArrowLeft,
  Check,
  CheckCircle2,
  Clock,
  FileUp,
  Layers,
  Play,
  Rocket,
  Save,
  X,
  Zap,
} from 'lucide-react';
import { useRef, type ChangeEvent } from 'react';

import { Spinner } from '@/components/spinner';
import { StatusBadge, workflowStatusTone } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

import { VERSION_NOTE_PLACEHOLDER, versionNoteHint } from '../history/history-texts';
import { WorkflowHistory } from '../history/workflow-history';
import { useBuilderStore } from '../store';
import { PROCESS_TYPE_LABELS, TRIGGER_TYPE_LABELS } from '../types';
import { FoldingText, FoldingTooltip } from './folding-label';
import { PauseResumeButton } from './pause-resume-button';
import { SaveWorkflowAsTemplate } from './save-as-template-button';

export interface BuilderHeaderProps {
  title: string;
  onValidate: () => void;
  onSave: () => void;
  onActivate: () => void;
  onClose: () => void;
  /** Opens the Execute dialog, or first offers 'Activate and run' when the workflow is not active. */
  onRun: () => void;
  isStarting: boolean;
  onImportFile: (file: File) => void;
  isSaving: boolean;
  isActivating: boolean;
  isImporting: boolean;
}

/** Beside Save: the note kept with the version the save (or Activate) records. */
function VersionNoteField({ disabled }: { disabled: boolean }) {
  const note = useBuilderStore((s) => s.versionNote);
  const setNote = useBuilderStore((s) => s.setVersionNote);
  const status = useBuilderStore((s) => s.existingStatus);
  return (
    <Input
      aria-label="Version note"
      value={note}
      placeholder={VERSION_NOTE_PLACEHOLDER}
      title={versionNoteHint(status)}
      maxLength={versionNoteMaxLength}
      disabled={disabled}
      onChange={(e) => setNote(e.target.value)}
      className="h-8 w-44 shrink-0 text-sm sm:w-52 lg:max-2xl:w-40"
    />
  );
}

function EstimateBadge({ className }: { className?: string }) {
  const processType = useBuilderStore((s) => s.settings.processType);
  const agentCount = useBuilderStore((s) => countAgentNodes(s.nodes));
  return (
    <Badge
      variant="outline"
      className={cn('gap-1', className)}
      title={`${agentCount} agent${agentCount === 1 ? '' : 's'}`}
    >
      <Clock aria-hidden="true" />~{estimateMinutes(processType, agentCount)} min
    </Badge>
  );
}

export function BuilderHeader(props: BuilderHeaderProps) {
  const name = useBuilderStore((s) => s.settings.name);
  const processType = useBuilderStore((s) => s.settings.processType);
  const triggerType = useBuilderStore((s) => s.settings.triggerType);
  const existingStatus = useBuilderStore((s) => s.existingStatus);
  const saveIndicator = useBuilderStore((s) => s.saveIndicator);
  const setSettings = useBuilderStore((s) => s.setSettings);
  const fileInput = useRef<HTMLInputElement>(null);
  const busy = props.isSaving || props.isActivating || props.isImporting;

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) props.onImportFile(file);
  };

  return (
    // On a phone the header stays compact so the canvas below it is in view: the badges and Close (the
    // back arrow does the same) are left out, the main actions come first and the others scroll sideways.
    <header className="flex flex-col gap-2 border-b bg-background px-3 py-2 sm:gap-3 sm:px-4 sm:py-3 lg:flex-row lg:items-center lg:justify-between">
      <div className="flex min-w-0 items-center gap-3">
        <Button
          variant="ghost"
          size="icon"
          onClick={props.onClose}
          aria-label="Back to Workflows"
          className="shrink-0"
        >
          <ArrowLeft aria-hidden="true" />
        </Button>
        <div className="min-w-0 space-y-1.5">
          <div className="flex items-center gap-2">
            <h1 className="truncate text-sm font-medium text-muted-foreground">{props.title}</h1>
            {existingStatus && (
              <StatusBadge label={existingStatus} tone={workflowStatusTone(existingStatus)} />
            )}
            <span role="status" aria-live="polite" className="text-xs text-muted-foreground">
              {saveIndicator === 'saving' && 'Saving…'}
              {saveIndicator === 'saved' && (
                <span className="inline-flex items-center gap-1 text-emerald-700 dark:text-emerald-400">
                  <Check className="size-3.5" aria-hidden="true" />
                  Saved
                </span>
              )}
            </span>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Input
              aria-label="Workflow name"
              value={name}
              placeholder="Untitled workflow"
              onChange={(e) => setSettings({ name: e.target.value })}
              className="h-8 w-64 max-w-full text-base font-semibold"
            />
            <Badge variant="secondary" className="gap-1 capitalize max-sm:hidden">
              <Layers aria-hidden="true" />
              {PROCESS_TYPE_LABELS[processType]}
            </Badge>
            <Badge variant="secondary" className="gap-1 max-sm:hidden">
              <Zap aria-hidden="true" />
              {TRIGGER_TYPE_LABELS[triggerType]}
            </Badge>
            <EstimateBadge className="max-sm:hidden" />
          </div>
        </div>
      </div>
      {/* On wide screens the actions keep one row; the name side gives way. */}
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center xl:shrink-0">
        <div className="-mx-3 flex items-center gap-2 overflow-x-auto px-3 sm:contents">
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            className="hidden"
            onChange={onFile}
          />
          <FoldingTooltip label="Import">
            <Button variant="ghost" size="sm" onClick={() => fileInput.current?.click()} disabled={busy}>
              {props.isImporting ? <Spinner /> : <FileUp aria-hidden="true" />}
              <FoldingText>Import</FoldingText>
            </Button>
          </FoldingTooltip>
          <WorkflowHistory />
          <SaveWorkflowAsTemplate disabled={busy} />
          <FoldingTooltip label="Validate">
            <Button variant="outline" size="sm" onClick={props.onValidate}>
              <CheckCircle2 aria-hidden="true" />
              <FoldingText>Validate</FoldingText>
            </Button>
          </FoldingTooltip>
          <VersionNoteField disabled={busy} />
        </div>
        <div className="flex flex-wrap items-center gap-2 max-sm:order-first sm:contents">
          <Button
            variant="outline"
            size="sm"
            onClick={props.onSave}
            disabled={busy}
            aria-busy={props.isSaving}
          >
            {props.isSaving ? <Spinner /> : <Save aria-hidden="true" />}
            Save Draft
          </Button>
          <Button size="sm" onClick={props.onActivate} disabled={busy} aria-busy={props.isActivating}>
            {props.isActivating ? <Spinner /> : <Rocket aria-hidden="true" />}
            {props.isActivating ? 'Activating...' : 'Activate'}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={props.onRun}
            disabled={busy || props.isStarting}
            aria-busy={props.isStarting}
            className="border-emerald-600/40 text-emerald-700 hover:text-emerald-800 dark:text-emerald-400"
          >
            {props.isStarting ? <Spinner /> : <Play aria-hidden="true" />}
            Run
          </Button>
          <PauseResumeButton disabled={busy} />
          <FoldingTooltip label="Close">
            <Button variant="ghost" size="sm" onClick={props.onClose} className="max-sm:hidden">
              <X aria-hidden="true" />
              <FoldingText>Close</FoldingText>
            </Button>
          </FoldingTooltip>
        </div>
      </div>
    </header>
  );
}
