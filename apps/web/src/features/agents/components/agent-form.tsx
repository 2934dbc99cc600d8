import { zodResolver } from '@hookform/resolvers/zod';
import type { AgentMemorySettings } from '@crewline/contracts';
import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';

import { EmbeddingConnectionFields } from '@/components/embedding-connection-fields';
import { GuardrailChecksEditor } from '@/components/guardrail-checks-editor';
import { TextField } from '@/components/text-field';
import { Badge } from '@/components/ui/badge';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Slider } from '@/components/ui/slider';
import { Switch } from '@/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { parseApiError } from '@/lib/api';
import { useProviders } from '@/lib/queries/providers';
import { cn } from '@/lib/utils';

import { AGENT_PROVIDER_OPTIONS, AGENT_STATUS_OPTIONS, providerLabel } from '../agent-display';
import {
  AGENT_FORM_TABS,
  agentFormSchema,
  CREATE_MAX_TOKENS_MAX,
  EDIT_MAX_TOKENS_MAX,
  errorFieldPaths,
  firstErrorField,
  formFieldOfServerPath,
  formOutputToPayload,
  MAX_TOKENS_MIN,
  tabOfField,
  tabsWithErrors,
  TEMPERATURE_STEP,
  type AgentFormField,
  type AgentFormOutput,
  type AgentFormTab,
  type AgentFormValues,
} from '../agent-form-values';
import {
  DEFAULT_PROVIDER_CATALOGUE,
  defaultModelFor,
  modelFieldMode,
  modelOptions,
  normalizeCatalogue,
  prefilledModel,
} from '../provider-catalogue';
import { ProviderIcon } from './provider-icon';

export type AgentPayload = ReturnType<typeof formOutputToPayload>;

/** The agent's three lists of guardrail checks, as the form names them. */
const GUARDRAIL_LISTS = [
  { name: 'input', label: 'On its input' },
  { name: 'output', label: 'On its answer' },
  { name: 'tools', label: 'On its tool calls' },
] as const;

const STATUS_LABELS: Record<(typeof AGENT_STATUS_OPTIONS)[number], string> = {
  active: 'Active',
  inactive: 'Inactive',
  busy: 'Busy',
  error: 'Error',
};

/**
 * The agent form with its four tabs: Basic Info, LLM Settings, Tools, Advanced.
 * A failed submit switches to the tab holding the first error and focuses that field.
 */
export function AgentForm({
  mode,
  formId,
  defaultValues,
  savedMemory,
  onSubmit,
  toolsContent,
  memories,
  footer,
  disabled,
  onDirtyChange,
  contentClassName,
}: {
  mode: 'create' | 'edit';
  formId: string;
  defaultValues: AgentFormValues;
  /** The saved agent's memory settings, sent again only when changed (none when new). */
  savedMemory?: AgentMemorySettings | null;
  /** `applyServerErrors` puts a 400's field errors under their inputs (and shows their tab). */
  onSubmit: (payload: AgentPayload, applyServerErrors: (error: unknown) => void) => void;
  toolsContent: ReactNode;
  /** What the Advanced tab shows under the Memory settings (a saved agent's memories), given the switch. */
  memories?: (memoryOn: boolean) => ReactNode;
  footer?: ReactNode;
  disabled?: boolean;
  onDirtyChange?: (dirty: boolean) => void;
  contentClassName?: string;
}) {
  const schema = agentFormSchema(mode);
  const maxTokensMax = mode === 'edit' ? EDIT_MAX_TOKENS_MAX : CREATE_MAX_TOKENS_MAX;
  const form = useForm<AgentFormValues, unknown, AgentFormOutput>({
    // The inputs always hold every field (AgentFormValues), a narrower type than the schema's input
    // (where defaulted fields are optional); the schema still checks every value.
    resolver: zodResolver(schema) as unknown as Resolver<AgentFormValues, unknown, AgentFormOutput>,
    defaultValues,
    shouldFocusError: false,
  });
  const [tab, setTab] = useState<AgentFormTab>('basic');
  // The field to focus once its tab is shown (after a failed submit).
  const [focusTarget, setFocusTarget] = useState<AgentFormField | null>(null);
  const catalogueQuery = useProviders(normalizeCatalogue);
  const catalogue = catalogueQuery.data ?? DEFAULT_PROVIDER_CATALOGUE;
  const temperatureLabelId = useId();
  const modelListId = useId();

  // A new agent from the server (saved, refetched) becomes the form's baseline.
  useEffect(() => {
    form.reset(defaultValues);
  }, [defaultValues, form]);

  // A new agent starts with its provider connection's default model once the server's catalogue
  // names it, unless the user already picked or typed one.
  const loadedCatalogue = catalogueQuery.data;
  useEffect(() => {
    if (mode !== 'create' || !loadedCatalogue) return;
    const model = prefilledModel(
      loadedCatalogue,
      form.getValues('llmProvider'),
      form.getValues('llmModel'),
      form.getFieldState('llmModel').isTouched,
    );
    if (model !== null) form.setValue('llmModel', model);
  }, [loadedCatalogue, mode, form]);

  const { isDirty, errors } = form.formState;
  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);

  useEffect(() => {
    if (!focusTarget) return;
    const frame = requestAnimationFrame(() => {
      form.setFocus(focusTarget);
      setFocusTarget(null);
    });
    return () => cancelAnimationFrame(frame);
  }, [focusTarget, form]);

  const showFirstError = (fields: Iterable<string>) => {
    const field = firstErrorField(fields);
    if (!field) return;
    const fieldTab = tabOfField(field);
    if (fieldTab) setTab(fieldTab);
    setFocusTarget(field);
  };

  const onInvalid = (formErrors: FieldErrors<AgentFormValues>) => showFirstError(errorFieldPaths(formErrors));

  const applyServerErrors = (error: unknown) => {
    const known = parseApiError(error).errors.flatMap(({ path, message }) => {
      const field = formFieldOfServerPath(path);
      return field ? [{ field, message }] : [];
    });
    for (const { field, message } of known) form.setError(field, { type: 'server', message });
    showFirstError(known.map((e) => e.field));
  };

  const submit = (event: FormEvent<HTMLFormElement>) =>
    void form.handleSubmit(
      (values) => onSubmit(formOutputToPayload(values, savedMemory), applyServerErrors),
      onInvalid,
    )(event);

  const errorTabs = tabsWithErrors(errorFieldPaths(errors));
  const memoryOn = useWatch({ control: form.control, name: 'memory.enabled' });
  const provider = useWatch({ control: form.control, name: 'llmProvider' });
  const temperature = useWatch({ control: form.control, name: 'temperature' });
  const currentModel = useWatch({ control: form.control, name: 'llmModel' });
  const models = useMemo(
    () => modelOptions(catalogue, provider, currentModel),
    [catalogue, provider, currentModel],
  );
  const modelMode = modelFieldMode(loadedCatalogue, provider);

  return (
    <Form {...form}>
      <form id={formId} onSubmit={submit} noValidate className="flex min-w-0 flex-col gap-5">
        <fieldset disabled={disabled} className="min-w-0">
          <Tabs value={tab} onValueChange={(value) => setTab(value as AgentFormTab)} className="gap-5">
            <TabsList className="grid h-auto w-full grid-cols-2 gap-1 sm:h-9 sm:grid-cols-4 sm:gap-0">
              {AGENT_FORM_TABS.map(({ value, label }) => (
                <TabsTrigger key={value} value={value} className="relative h-8 text-xs sm:h-auto sm:text-sm">
                  {label}
                  {errorTabs.has(value) && (
                    <>
                      <span className="size-1.5 rounded-full bg-destructive" aria-hidden="true" />
                      <span className="sr-only">(has errors)</span>
                    </>
                  )}
                </TabsTrigger>
              ))}
            </TabsList>

            <TabsContent value="basic" className={cn('space-y-4', contentClassName)}>
              <div className="grid items-start gap-4 sm:grid-cols-2">
                <TextField
                  control={form.control}
                  name="name"
                  label="Name"
                  required
                  placeholder="e.g. Research Analyst"
                  autoComplete="off"
                />
                <TextField
                  control={form.control}
                  name="role"
                  label="Role"
                  required
                  placeholder="e.g. Senior Market Researcher"
                  autoComplete="off"
                />
              </div>
              <TextField
                control={form.control}
                name="goal"
                label="Goal"
                required
                rows={2}
                placeholder="What this agent is trying to achieve"
                className="min-h-16"
              />
              <TextField
                control={form.control}
                name="description"
                label="Description"
                rows={2}
                placeholder="A short summary shown on the agent's card"
                className="min-h-16"
              />
              <TextField
                control={form.control}
                name="backstory"
                label="Backstory"
                rows={3}
                placeholder="Experience and personality that shape how the agent works"
                className="min-h-20"
              />
            </TabsContent>

            <TabsContent value="llm" className={cn('space-y-5', contentClassName)}>
              <div className="grid items-start gap-4 sm:grid-cols-2">
                <FormField
                  control={form.control}
                  name="llmProvider"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Provider</FormLabel>
                      <Select
                        value={field.value}
                        disabled={disabled}
                        onValueChange={(value) => {
                          field.onChange(value);
                          form.setValue('llmModel', defaultModelFor(catalogue, value), {
                            shouldDirty: true,
                            shouldValidate: form.formState.isSubmitted,
                          });
                        }}
                      >
                        <FormControl>
                          <SelectTrigger className="w-full" ref={field.ref} onBlur={field.onBlur}>
                            <SelectValue placeholder="Choose a provider" />
                          </SelectTrigger>
                        </FormControl>
                        <SelectContent>
                          {AGENT_PROVIDER_OPTIONS.map((option) => (
                            <SelectItem key={option} value={option}>
                              <ProviderIcon provider={option} className="size-5" />
                              {catalogue[option]?.name ?? providerLabel(option)}
                            </SelectItem>
                          ))}
                        </SelectContent>
                      </Select>
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <FormField
                  control={form.control}
                  name="llmModel"
                  render={({ field }) =>
                    modelMode.kind === 'typed' ? (
                      <FormItem>
                        <FormLabel>Model</FormLabel>
                        <FormControl>
                          <Input
                            list={models.length > 0 ? modelListId : undefined}
                            placeholder={provider === 'local' ? 'e.g. llama3.1' : 'Model name'}
                            autoComplete="off"
                            spellCheck={false}
                            className="font-mono"
                            {...field}
                          />
                        </FormControl>
                        {models.length > 0 && (
                          <datalist id={modelListId}>
                            {models.map((model) => (
                              <option key={model} value={model} />
                            ))}
                          </datalist>
                        )}
                        <FormDescription className="text-xs">
                          {modelMode.note ??
                            `Type any model name your ${provider === 'local' ? 'local runtime' : 'endpoint'} serves.`}
                        </FormDescription>
                        <FormMessage />
                      </FormItem>
                    ) : (
                      <FormItem>
                        <FormLabel>Model</FormLabel>
                        <Select value={field.value} onValueChange={field.onChange} disabled={disabled}>
                          <FormControl>
                            <SelectTrigger className="w-full font-mono" ref={field.ref} onBlur={field.onBlur}>
                              <SelectValue placeholder="Choose a model" />
                            </SelectTrigger>
                          </FormControl>
                          <SelectContent>
                            {models.map((model) => (
                              <SelectItem key={model} value={model} className="font-mono">
                                {model}
                              </SelectItem>
                            ))}
                          </SelectContent>
                        </Select>
                        <FormMessage />
                      </FormItem>
                    )
                  }
                />
              </div>

              <FormField
                control={form.control}
                name="temperature"
                render={({ field }) => (
                  <FormItem>
                    <div className="flex items-center justify-between gap-3">
                      <Label id={temperatureLabelId}>Temperature</Label>
                      <Badge variant="secondary" className="tabular-nums" aria-hidden="true">
                        {temperature}%
                      </Badge>
                    </div>
                    <Slider
                      value={[field.value]}
                      min={0}
                      max={100}
                      step={TEMPERATURE_STEP}
                      disabled={disabled}
                      onValueChange={([value]) => field.onChange(value)}
                      onBlur={field.onBlur}
                      aria-labelledby={temperatureLabelId}
                      aria-valuetext={`${field.value}%`}
                      className="py-2"
                    />
                    <div className="flex justify-between text-xs text-muted-foreground">
                      <span>Precise</span>
                      <span>Balanced</span>
                      <span>Creative</span>
                    </div>
                    <FormMessage />
                  </FormItem>
                )}
              />

              <FormField
                control={form.control}
                name="maxTokens"
                render={({ field }) => (
                  <FormItem className="sm:max-w-[calc(50%-0.5rem)]">
                    <FormLabel>Max Tokens</FormLabel>
                    <FormControl>
                      <Input
                        type="number"
                        inputMode="numeric"
                        min={MAX_TOKENS_MIN}
                        max={maxTokensMax}
                        step={100}
                        name={field.name}
                        ref={field.ref}
                        onBlur={field.onBlur}
                        value={Number.isNaN(field.value) ? '' : field.value}
                        onChange={(event) =>
                          field.onChange(event.target.value === '' ? Number.NaN : event.target.valueAsNumber)
                        }
                        className="tabular-nums"
                      />
                    </FormControl>
                    <FormDescription className="text-xs">
                      Between {MAX_TOKENS_MIN} and {maxTokensMax} tokens per answer.
                    </FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </TabsContent>

            <TabsContent value="tools" className={contentClassName}>
              {toolsContent}
            </TabsContent>

            <TabsContent value="advanced" className={cn('space-y-4', contentClassName)}>
              <TextField
                control={form.control}
                name="systemPrompt"
                label="System Prompt"
                rows={8}
                placeholder="Instructions the model receives before every task (optional)"
                className="min-h-40 font-mono text-[13px]"
                description="Leave empty to build the prompt from the role, goal and backstory."
              />
              <FormField
                control={form.control}
                name="status"
                render={({ field }) => (
                  <FormItem className="sm:max-w-[calc(50%-0.5rem)]">
                    <FormLabel>Status</FormLabel>
                    <Select value={field.value} onValueChange={field.onChange} disabled={disabled}>
                      <FormControl>
                        <SelectTrigger className="w-full" ref={field.ref} onBlur={field.onBlur}>
                          <SelectValue placeholder="Choose a status" />
                        </SelectTrigger>
                      </FormControl>
                      <SelectContent>
                        {AGENT_STATUS_OPTIONS.map((option) => (
                          <SelectItem key={option} value={option}>
                            {STATUS_LABELS[option]}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <section aria-label="Memory" className="space-y-4 rounded-lg border p-4">
                <FormField
                  control={form.control}
                  name="memory.enabled"
                  render={({ field }) => (
                    <FormItem className="flex items-start justify-between gap-4">
                      <div className="grid gap-1">
                        <FormLabel>Memory</FormLabel>
                        <FormDescription className="text-xs">
                          Remember facts from each run and use them in later runs.
                        </FormDescription>
                        <FormMessage />
                      </div>
                      <FormControl>
                        <Switch
                          ref={field.ref}
                          checked={field.value}
                          onBlur={field.onBlur}
                          disabled={disabled}
                          onCheckedChange={(checked) => {
                            field.onChange(checked);
                            // Switched off, its settings are kept but no longer checked.
                            if (!checked) form.clearErrors('memory');
                          }}
                        />
                      </FormControl>
                    </FormItem>
                  )}
                />
                {memoryOn && (
                  <EmbeddingConnectionFields
                    control={form.control}
                    providerName="memory.connection"
                    modelName="memory.model"
                    disabled={disabled}
                  />
                )}
              </section>
              {memories?.(memoryOn)}
              <section aria-label="Guardrails" className="space-y-4 rounded-lg border p-4">
                <div className="grid gap-1">
                  <h3 className="text-sm font-medium">Guardrails</h3>
                  <p className="text-xs text-muted-foreground">
                    Checks on what the agent is asked, what it answers and its tool calls&apos; arguments and
                    results. A block fails its step with &lsquo;Blocked by guardrail: &lt;check&gt;&rsquo;.
                  </p>
                </div>
                {GUARDRAIL_LISTS.map(({ name, label }) => (
                  <FormField
                    key={name}
                    control={form.control}
                    name={`guardrails.${name}`}
                    render={({ field }) => (
                      <div className="space-y-2">
                        <h4 className="text-sm font-medium">{label}</h4>
                        <GuardrailChecksEditor
                          label={label}
                          value={field.value}
                          empty="No checks."
                          onChange={(next) => field.onChange(next)}
                        />
                      </div>
                    )}
                  />
                ))}
                {errors.guardrails?.message && (
                  <p className="text-sm text-destructive">{errors.guardrails.message}</p>
                )}
              </section>
            </TabsContent>
          </Tabs>
        </fieldset>
        {footer}
      </form>
    </Form>
  );
}
