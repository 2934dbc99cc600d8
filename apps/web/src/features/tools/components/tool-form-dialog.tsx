import type { Tool, ToolCategory } from '@crewline/contracts';
import { CircleAlert } from 'lucide-react';
import { Fragment, useState, type FormEvent, type ReactNode } from 'react';

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
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';
import { useKnowledgeBases } from '@/lib/queries/knowledge-bases';

import { useCreateTool } from '../api/create-tool';
import { useUpdateTool } from '../api/update-tool';
import {
  buildToolPayload,
  configFieldsOf,
  visibleConfigFields,
  emptyToolForm,
  keyAgainErrors,
  mapServerErrors,
  mcpHeaderErrors,
  TOOL_CATEGORIES,
  toolCategoryLabel,
  toolFormFromTool,
  usesJsonEditor,
  validateToolPayload,
  type ConfigFieldDef,
  type FieldErrors,
  type McpAuth,
  type ToolFormValues,
} from '../tool-form';
import { categoryHint, categoryIcon, providerPlaceholder } from './category-visuals';
import { JsonConfigEditor } from './json-config-editor';
import { SecretInput } from '@/components/secret-input';

/** The element id of the control that shows an error path. */
function controlId(path: string): string {
  if (path === 'config') return 'tool-config-json';
  if (path.startsWith('config.')) return `tool-config-${path.slice('config.'.length)}`;
  return `tool-${path}`;
}

const FIELD_ORDER = ['name', 'category', 'provider', 'description'];

function focusFirstError(errors: FieldErrors, category: ToolCategory) {
  const order = [...FIELD_ORDER, ...configFieldsOf(category).map((field) => `config.${field.key}`), 'config'];
  const first = order.find((path) => errors[path]);
  if (first) requestAnimationFrame(() => document.getElementById(controlId(first))?.focus());
}

interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

function Field({
  path,
  label,
  hint,
  error,
  required,
  children,
}: {
  path: string;
  label: string;
  hint?: string;
  error?: string;
  required?: boolean;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = controlId(path);
  const describedBy = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ');
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>
        {label}
        {required && (
          <span className="text-destructive" aria-hidden="true">
            *
          </span>
        )}
      </Label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {error && (
        <p id={`${id}-error`} className="text-sm wrap-anywhere text-destructive">
          {error}
        </p>
      )}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

function ConfigField({
  field,
  value,
  error,
  onChange,
}: {
  field: ConfigFieldDef;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field path={`config.${field.key}`} label={field.label} hint={field.hint} error={error}>
      {(control) =>
        field.kind === 'knowledge-base' ? (
          <KnowledgeBaseSelect {...control} value={value} onChange={onChange} />
        ) : field.kind === 'secret' ? (
          <SecretInput {...control} value={value} placeholder={field.placeholder} onValueChange={onChange} />
        ) : (
          <Input
            {...control}
            type={field.kind === 'number' ? 'number' : field.kind === 'url' ? 'url' : 'text'}
            inputMode={field.kind === 'number' ? 'numeric' : undefined}
            min={field.kind === 'number' ? 1 : undefined}
            step={field.kind === 'number' ? 1 : undefined}
            value={value}
            placeholder={field.placeholder}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }
    </Field>
  );
}

/** The organization's knowledge bases, or none (a Pinecone index). */
function KnowledgeBaseSelect({
  value,
  onChange,
  ...control
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  const knowledgeBases = useKnowledgeBases();
  const known = knowledgeBases.data ?? [];
  // A stored id of a knowledge base deleted since still shows, so saving does not drop it silently.
  const missing = value && !knowledgeBases.isPending && !known.some((kb) => kb.id === value);
  return (
    <Select
      value={value || NO_KNOWLEDGE_BASE}
      onValueChange={(next) => onChange(next === NO_KNOWLEDGE_BASE ? '' : next)}
    >
      <SelectTrigger {...control} className="w-full">
        <SelectValue placeholder={knowledgeBases.isPending ? 'Loading…' : 'None'} />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={NO_KNOWLEDGE_BASE}>None (Pinecone index)</SelectItem>
        {known.map((kb) => (
          <SelectItem key={kb.id} value={kb.id}>
            {kb.name}
          </SelectItem>
        ))}
        {missing && <SelectItem value={value}>A deleted knowledge base</SelectItem>}
      </SelectContent>
    </Select>
  );
}
const NO_KNOWLEDGE_BASE = 'none';

const MCP_AUTH_HINTS: Partial<Record<McpAuth, string>> = {
  header: 'Sent with every request to the server, e.g. Authorization: Bearer …',
  oauth: 'An owner or admin signs in once in a popup after saving; Crewline keeps the sign-in fresh.',
};

/**
 * An MCP server's Authentication: None, a header (name and value) sent with every request, or OAuth
 * (signed in from the Server tools dialog or Settings once the connection is saved).
 */
function McpAuthField({ value, onChange }: { value: McpAuth; onChange: (value: McpAuth) => void }) {
  return (
    <div className="sm:col-span-2">
      <Field path="config.auth" label="Authentication" hint={MCP_AUTH_HINTS[value]}>
        {(control) => (
          <Select value={value} onValueChange={(next) => onChange(next as McpAuth)}>
            <SelectTrigger {...control} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="none">None</SelectItem>
              <SelectItem value="header">Header</SelectItem>
              <SelectItem value="oauth">OAuth (sign in)</SelectItem>
            </SelectContent>
          </Select>
        )}
      </Field>
    </div>
  );
}

/**
 * Create and edit dialog of a tool. Mount it with a fresh `key` for every
 * opening so it starts from the tool (or from an empty form).
 */
export function ToolFormDialog({
  open,
  onOpenChange,
  tool,
  category: initialCategory,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The tool to edit; null to create one. */
  tool: Tool | null;
  /** A new tool's category (Settings' Add MCP server); web by default. */
  category?: ToolCategory;
  /** After a create succeeded (an MCP server's tools are shown next). */
  onCreated?: (tool: Tool) => void;
}) {
  const isEdit = !!tool;
  const [values, setValues] = useState<ToolFormValues>(() =>
    tool ? toolFormFromTool(tool) : emptyToolForm(initialCategory),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const createTool = useCreateTool();
  const updateTool = useUpdateTool();
  const pending = createTool.isPending || updateTool.isPending;

  const clearError = (...paths: string[]) =>
    setErrors((current) => {
      if (!paths.some((path) => current[path])) return current;
      const next = { ...current };
      for (const path of paths) delete next[path];
      return next;
    });

  const set = <K extends keyof ToolFormValues>(key: K, value: ToolFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    clearError(key, 'form');
  };

  const setField = (key: ConfigFieldDef['key'], value: string) => {
    setValues((current) => ({ ...current, fields: { ...current.fields, [key]: value } }));
    clearError(`config.${key}`, 'form');
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const payload = buildToolPayload(values, tool);
    const clientErrors = mapServerErrors(
      Object.entries({
        ...validateToolPayload(payload),
        ...mcpHeaderErrors(values),
        ...keyAgainErrors(payload, tool),
      }).map(([path, message]) => ({ path, message })),
      values.category,
    );
    if (Object.keys(clientErrors).length > 0) {
      setErrors(clientErrors);
      focusFirstError(clientErrors, values.category);
      return;
    }
    setErrors({});

    const onError = (error: unknown) => {
      const parsed = parseApiError(error);
      if (parsed.status === 400 && parsed.errors.length > 0) {
        const serverErrors = mapServerErrors(parsed.errors, values.category);
        setErrors(serverErrors);
        focusFirstError(serverErrors, values.category);
      } else if (parsed.status === 400 && parsed.message) {
        setErrors({ form: parsed.message });
      }
      toast({
        variant: 'destructive',
        title: 'Error',
        description: isEdit ? 'Failed to update tool.' : 'Failed to create tool.',
      });
    };

    if (tool) {
      updateTool.mutate(
        { id: tool.id, input: payload },
        {
          onSuccess: (saved) => {
            toast({
              title: 'Tool updated',
              description: `Changes to "${saved?.name ?? payload.name}" were saved.`,
            });
            onOpenChange(false);
          },
          onError,
        },
      );
    } else {
      createTool.mutate(payload, {
        onSuccess: (saved) => {
          toast({
            title: 'Tool created',
            description: `"${saved?.name ?? payload.name}" is ready to connect to your agents.`,
          });
          onOpenChange(false);
          if (saved) onCreated?.(saved);
        },
        onError,
      });
    }
  };

  const category = values.category;
  const fields = visibleConfigFields(category, values.fields, values.mcpAuth);
  const hasJson = usesJsonEditor(category);

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{isEdit ? 'Configure Tool' : 'Create Tool'}</DialogTitle>
          <DialogDescription>
            {isEdit
              ? 'Change how this tool works for your agents. Masked keys stay as stored unless you replace them or change where the tool connects.'
              : 'Give your agents a new ability. Keys and connection strings are stored encrypted.'}
          </DialogDescription>
        </DialogHeader>

        <form id="tool-form" noValidate onSubmit={onSubmit} className="grid gap-5">
          {errors.form && (
            <div
              role="alert"
              className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive"
            >
              <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {errors.form}
            </div>
          )}

          <div className="grid gap-4 sm:grid-cols-2">
            <Field path="name" label="Tool Name" error={errors.name} required>
              {(control) => (
                <Input
                  {...control}
                  value={values.name}
                  placeholder="e.g. Company Search"
                  maxLength={100}
                  autoComplete="off"
                  autoFocus
                  aria-required="true"
                  onChange={(event) => set('name', event.target.value)}
                />
              )}
            </Field>

            <Field path="category" label="Category" error={errors.category}>
              {(control) => (
                <Select
                  value={category}
                  onValueChange={(next) => {
                    setValues((current) => ({ ...current, category: next as ToolCategory }));
                    setErrors((current) =>
                      Object.fromEntries(
                        Object.entries(current).filter(
                          ([path]) => path !== 'category' && !path.startsWith('config'),
                        ),
                      ),
                    );
                  }}
                >
                  <SelectTrigger {...control} className="w-full">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {TOOL_CATEGORIES.map((value) => {
                      const Icon = categoryIcon[value];
                      return (
                        <SelectItem key={value} value={value} textValue={toolCategoryLabel(value)}>
                          <Icon aria-hidden="true" />
                          {toolCategoryLabel(value)}
                          <span className="sr-only">, {categoryHint[value]}</span>
                        </SelectItem>
                      );
                    })}
                  </SelectContent>
                </Select>
              )}
            </Field>

            <Field path="provider" label="Provider" error={errors.provider}>
              {(control) => (
                <Input
                  {...control}
                  value={values.provider}
                  placeholder={providerPlaceholder[category]}
                  maxLength={100}
                  autoComplete="off"
                  onChange={(event) => set('provider', event.target.value)}
                />
              )}
            </Field>

            <div className="flex items-center justify-between gap-4 rounded-lg border px-3 py-2.5 sm:self-end">
              <div className="grid gap-0.5">
                <Label htmlFor="tool-isActive">Active</Label>
                <p className="text-xs text-muted-foreground">Agents can use it only while active</p>
              </div>
              <Switch
                id="tool-isActive"
                checked={values.isActive}
                onCheckedChange={(checked) => set('isActive', checked)}
              />
            </div>
          </div>

          <Field path="description" label="Description" error={errors.description}>
            {(control) => (
              <Textarea
                {...control}
                value={values.description}
                placeholder="What this tool does and when an agent should use it"
                rows={2}
                maxLength={2000}
                className="min-h-16"
                onChange={(event) => set('description', event.target.value)}
              />
            )}
          </Field>

          <fieldset className="grid min-w-0 gap-4 rounded-lg border bg-muted/30 p-4">
            <legend className="-ml-1 px-1 text-sm font-medium">
              Configuration
              <span className="ml-2 font-normal text-muted-foreground">{toolCategoryLabel(category)}</span>
            </legend>
            {fields.length > 0 && (
              <div className="grid gap-4 sm:grid-cols-2">
                {fields.map((field) => (
                  <Fragment key={field.key}>
                    <div
                      className={
                        // An MCP server's header name and value sit side by side.
                        (field.kind === 'secret' && !field.mcpHeaderOnly) ||
                        field.kind === 'url' ||
                        field.kind === 'knowledge-base'
                          ? 'sm:col-span-2'
                          : undefined
                      }
                    >
                      <ConfigField
                        field={field}
                        value={values.fields[field.key]}
                        error={errors[`config.${field.key}`]}
                        onChange={(value) => setField(field.key, value)}
                      />
                    </div>
                    {category === 'mcp' && field.key === 'url' && (
                      <McpAuthField
                        value={values.mcpAuth}
                        onChange={(mcpAuth) => {
                          setValues((current) => ({ ...current, mcpAuth }));
                          clearError('config.headerName', 'config.headerValue', 'form');
                        }}
                      />
                    )}
                  </Fragment>
                ))}
              </div>
            )}
            {hasJson && (
              <JsonConfigEditor
                id={controlId('config')}
                label={category === 'custom' ? 'Additional Settings (JSON)' : 'Configuration (JSON)'}
                state={values.json}
                error={errors.config}
                hint={
                  category === 'custom'
                    ? 'Any other settings your endpoint needs, as a JSON object.'
                    : 'Settings of this tool as a JSON object. Keys named apiKey, token, secret or password are stored encrypted.'
                }
                onChange={(json) => {
                  setValues((current) => ({ ...current, json }));
                  clearError('config', 'form');
                }}
              />
            )}
          </fieldset>
        </form>

        <DialogFooter>
          <Button type="button" variant="outline" disabled={pending} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form="tool-form" disabled={pending} aria-busy={pending}>
            {pending && <Spinner />}
            {isEdit ? 'Save Changes' : 'Create Tool'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
