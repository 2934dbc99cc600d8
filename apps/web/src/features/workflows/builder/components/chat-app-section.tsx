// The Settings tab's Chat app section: the saved workflow as a chat app on a hosted page, in a widget
// other sites embed and behind the OpenAI-compatible endpoint (GET/PUT /api/workflows/:id/publishing
// with `{ chat }`; docs/product-rules.md, Chat apps). Saved on its own, like the MCP section beside
// it. Owners and admins edit it; others see it read-only. Once saved: the page's address, the widget's
// tag, and the app's conversations. Loaded lazily by settings-tab.tsx, so the builder's first
// download does not grow.
import {
  CHAT_MAX_SUGGESTIONS,
  chatAccessLabels,
  chatAccessValues,
  chatMessages,
  chatThemeModeValues,
  type ChatThemeMode,
} from '@crewline/contracts';
import { ExternalLink, MessageSquare, MessagesSquare, Plus, X } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';

import { CopyButton } from '@/components/copy-button';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';
import { useAuth } from '@/lib/session';

import { useSetPublishing, useWorkflowPublishing } from '@/features/workflows/api/publishing';
import { useBuilderStore } from '../store';
import {
  chatBodyOf,
  chatDraftOf,
  chatEmbedSnippet,
  placeChatError,
  type ChatDraft,
  type ChatField,
  type ChatFieldErrors,
} from './chat-app-form';
import { DescribedField as Field } from './described-field';

// The conversations (and the Markdown renderer they need) download when first opened.
const ChatConversationsDialog = lazy(async () => ({
  default: (await import('./chat-conversations-dialog')).ChatConversationsDialog,
}));

export const CHAT_READ_ONLY = 'Only owners and admins can publish chat apps.';
const SAVE_FAILED = 'The chat app could not be saved. Try again.';
export const KEEP_PASSWORD = 'Leave empty to keep the current password';
const THEME_LABELS: Record<ChatThemeMode, string> = { auto: 'Auto', light: 'Light', dark: 'Dark' };

/** Radio buttons in a fieldset: the theme's mode, who may use the app. */
function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  labels,
  disabled,
  inline = false,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: readonly T[];
  labels: Record<T, string>;
  disabled: boolean;
  inline?: boolean;
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <fieldset className="space-y-1.5" disabled={disabled}>
      <legend className="mb-1.5 text-sm leading-none font-medium">{legend}</legend>
      <div className={inline ? 'flex flex-wrap gap-x-4 gap-y-1.5' : 'space-y-1.5'}>
        {options.map((option) => (
          <label key={option} htmlFor={`${id}-${option}`} className="flex items-center gap-2 text-sm">
            <input
              id={`${id}-${option}`}
              type="radio"
              name={`${name}-${id}`}
              value={option}
              checked={value === option}
              className="size-4 accent-primary"
              onChange={() => onChange(option)}
            />
            {labels[option]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function SuggestionsField({
  suggestions,
  error,
  disabled,
  onChange,
}: {
  suggestions: string[];
  error: string | undefined;
  disabled: boolean;
  onChange: (suggestions: string[]) => void;
}) {
  return (
    <fieldset className="space-y-1.5" disabled={disabled}>
      <legend className="mb-1.5 text-sm leading-none font-medium">Suggested first messages</legend>
      {suggestions.map((suggestion, index) => (
        <div key={index} className="flex items-center gap-1.5">
          <Input
            aria-label={`Suggested message ${index + 1}`}
            value={suggestion}
            maxLength={200}
            {...(error && { 'aria-invalid': true })}
            onChange={(e) => onChange(suggestions.map((s, i) => (i === index ? e.target.value : s)))}
          />
          {!disabled && (
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`Remove suggested message ${index + 1}`}
              onClick={() => onChange(suggestions.filter((_, i) => i !== index))}
            >
              <X aria-hidden="true" />
            </Button>
          )}
        </div>
      ))}
      {error && <p className="text-xs wrap-anywhere text-destructive">{error}</p>}
      {!disabled && suggestions.length < CHAT_MAX_SUGGESTIONS && (
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...suggestions, ''])}>
          <Plus aria-hidden="true" />
          Add a suggestion
        </Button>
      )}
      <p className="text-xs text-muted-foreground">
        Up to {CHAT_MAX_SUGGESTIONS}, shown as buttons before the first message.
      </p>
    </fieldset>
  );
}

/** A value to copy, with Copy (and Open for an address). */
function CopyLine({ label, value, open = false }: { label: string; value: string; open?: boolean }) {
  return (
    <div className="space-y-1">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <div className="flex items-center gap-1 rounded-md border bg-muted/40 py-1 pr-1 pl-2.5">
        <code aria-label={label} className="min-w-0 flex-1 truncate font-mono text-xs" title={value}>
          {value}
        </code>
        <CopyButton value={value} label={label} />
        {open && (
          <Button asChild variant="ghost" size="icon" className="size-7">
            <a
              href={value}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Open ${label}`}
              title="Open"
            >
              <ExternalLink className="size-3.5" aria-hidden="true" />
            </a>
          </Button>
        )}
      </div>
    </div>
  );
}

export function ChatAppSection() {
  const workflowId = useBuilderStore((s) => s.workflowId);
  const active = useBuilderStore((s) => s.existingStatus === 'active');
  const workflowName = useBuilderStore((s) => s.settings.name);
  const { organization } = useAuth();
  const manager = organization?.role === 'owner' || organization?.role === 'admin';
  const publishing = useWorkflowPublishing(workflowId);
  const save = useSetPublishing(workflowId);
  // The edits since the last save; null shows what the server holds (or the defaults).
  const [draft, setDraft] = useState<ChatDraft | null>(null);
  const [errors, setErrors] = useState<ChatFieldErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [conversationsOpen, setConversationsOpen] = useState(false);
  const switchId = useId();

  const saved = publishing.data?.chat ?? null;
  const form = draft ?? chatDraftOf(saved, workflowName);
  const editable = manager && !!workflowId;
  const hasPassword = saved?.hasPassword ?? false;

  const edit = (patch: Partial<ChatDraft>) => {
    setDraft({ ...form, ...patch });
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[(key === 'themeMode' ? 'accent' : key) as ChatField];
      return next;
    });
    setBanner(null);
  };

  const onSave = () => {
    const result = chatBodyOf(form, hasPassword);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    save.mutate(result.body, {
      onSuccess: (answer) => {
        setDraft(null);
        setErrors({});
        setBanner(null);
        toast(
          answer.chat?.enabled
            ? { title: 'Chat app published', description: `People can chat with it at ${answer.chat.url}.` }
            : { title: 'Chat app switched off', description: 'Its page and widget no longer answer.' },
        );
      },
      onError: (error) => {
        const placed = placeChatError(parseApiError(error));
        setErrors(placed.fields);
        setBanner(Object.keys(placed.fields).length > 0 ? null : (placed.banner ?? SAVE_FAILED));
      },
    });
  };

  const origin = saved ? new URL(saved.url, window.location.origin).origin : window.location.origin;

  return (
    <section aria-labelledby="workflow-chat-heading" className="space-y-4 border-t pt-4">
      <div className="space-y-1">
        <h3 id="workflow-chat-heading" className="flex items-center gap-1.5 text-sm font-semibold">
          <MessageSquare className="size-3.5 text-muted-foreground" aria-hidden="true" />
          Chat app
        </h3>
        <p className="text-xs text-muted-foreground">
          Let people talk to this workflow on a page of its own, in a widget on your site, or from any
          OpenAI-compatible client.
        </p>
      </div>
      {!active && (
        <p
          role="note"
          className="rounded-md border border-amber-500/40 bg-amber-500/5 px-3 py-2 text-xs text-amber-800 dark:text-amber-300"
        >
          {chatMessages.notActive}
        </p>
      )}
      {!manager && <p className="text-xs text-muted-foreground">{CHAT_READ_ONLY}</p>}

      {workflowId && publishing.isPending ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading the chat app">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-9 w-full" />
        </div>
      ) : publishing.isError ? (
        <div className="space-y-2 text-xs">
          <p className="text-destructive">The chat app could not be loaded.</p>
          <Button type="button" variant="outline" size="sm" onClick={() => void publishing.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          <div className="flex items-start justify-between gap-3">
            <div className="space-y-0.5">
              <Label htmlFor={switchId} className="text-sm">
                Publish as a chat app
              </Label>
              <p className="text-xs text-muted-foreground">
                {saved && !form.enabled
                  ? 'Switched off: its page and widget say so, and its conversations are kept.'
                  : 'Each message starts a run of this workflow; its reply streams back.'}
              </p>
            </div>
            <Switch
              id={switchId}
              checked={form.enabled}
              // A workflow that is not active can be switched off, not on.
              disabled={!editable || (!active && !form.enabled)}
              onCheckedChange={(enabled) => edit({ enabled })}
            />
          </div>

          {saved && (
            <div className="space-y-3 rounded-md border p-3">
              <CopyLine label="Chat page address" value={saved.url} open />
              <CopyLine label="Widget tag" value={chatEmbedSnippet(origin, saved.slug)} />
              <p className="text-xs text-muted-foreground">
                Put the tag in your site&apos;s pages; list the site under Sites that may embed it.
              </p>
              <Button type="button" variant="outline" size="sm" onClick={() => setConversationsOpen(true)}>
                <MessagesSquare aria-hidden="true" />
                Conversations
              </Button>
            </div>
          )}

          {form.enabled && (
            <div className="space-y-4">
              <Field label="Name" error={errors.name} hint="The title of its page and widget.">
                {(props) => (
                  <Input
                    {...props}
                    value={form.name}
                    disabled={!editable}
                    maxLength={100}
                    onChange={(e) => edit({ name: e.target.value })}
                  />
                )}
              </Field>
              <Field
                label="Slug"
                error={errors.slug}
                hint={`Its address: ${origin}/chat/${form.slug.trim().toLowerCase() || '…'}`}
              >
                {(props) => (
                  <Input
                    {...props}
                    value={form.slug}
                    disabled={!editable}
                    spellCheck={false}
                    autoComplete="off"
                    className="font-mono text-xs md:text-xs"
                    onChange={(e) => edit({ slug: e.target.value })}
                  />
                )}
              </Field>
              <Field label="Greeting" error={errors.greeting} hint="The first message people see (Markdown).">
                {(props) => (
                  <Textarea
                    {...props}
                    value={form.greeting}
                    disabled={!editable}
                    rows={3}
                    maxLength={1000}
                    placeholder="Hi! Ask me about…"
                    onChange={(e) => edit({ greeting: e.target.value })}
                  />
                )}
              </Field>
              <SuggestionsField
                suggestions={form.suggestions}
                error={errors.suggestions}
                disabled={!editable}
                onChange={(suggestions) => edit({ suggestions })}
              />
              <div className="space-y-3">
                <Choice
                  legend="Theme"
                  name="chat-theme"
                  value={form.themeMode}
                  options={chatThemeModeValues}
                  labels={THEME_LABELS}
                  disabled={!editable}
                  inline
                  onChange={(themeMode) => edit({ themeMode })}
                />
                <Field label="Accent color" error={errors.accent}>
                  {(props) => (
                    <div className="flex items-center gap-2">
                      <input
                        {...props}
                        type="color"
                        value={/^#[0-9a-f]{6}$/i.test(form.accent) ? form.accent : '#000000'}
                        disabled={!editable}
                        className="h-9 w-12 cursor-pointer rounded-md border bg-background p-1 disabled:cursor-default"
                        onChange={(e) => edit({ accent: e.target.value })}
                      />
                      <Input
                        aria-label="Accent color (hex)"
                        value={form.accent}
                        disabled={!editable}
                        spellCheck={false}
                        className="w-28 font-mono text-xs md:text-xs"
                        onChange={(e) => edit({ accent: e.target.value })}
                      />
                    </div>
                  )}
                </Field>
              </div>
              <Choice
                legend="Who can use it"
                name="chat-access"
                value={form.access}
                options={chatAccessValues}
                labels={chatAccessLabels}
                disabled={!editable}
                onChange={(access) => edit({ access })}
              />
              {form.access === 'password' && (
                <Field
                  label="Password"
                  error={errors.password}
                  hint="At least 8 characters. Share it with the link."
                >
                  {(props) => (
                    <Input
                      {...props}
                      type="password"
                      autoComplete="new-password"
                      value={form.password}
                      disabled={!editable}
                      placeholder={hasPassword ? KEEP_PASSWORD : undefined}
                      onChange={(e) => edit({ password: e.target.value })}
                    />
                  )}
                </Field>
              )}
              <Field
                label="Sites that may embed it"
                error={errors.allowedOrigins}
                hint="One origin per line, e.g. https://www.example.com. None: only its own page."
              >
                {(props) => (
                  <Textarea
                    {...props}
                    value={form.allowedOrigins}
                    disabled={!editable}
                    rows={2}
                    spellCheck={false}
                    placeholder="https://www.example.com"
                    className="font-mono text-xs md:text-xs"
                    onChange={(e) => edit({ allowedOrigins: e.target.value })}
                  />
                )}
              </Field>
              <div className="space-y-4">
                <Field label="Messages per visitor per minute" error={errors.rateLimitPerMinute}>
                  {(props) => (
                    <Input
                      {...props}
                      value={form.rateLimitPerMinute}
                      disabled={!editable}
                      inputMode="numeric"
                      className="w-28"
                      onChange={(e) => edit({ rateLimitPerMinute: e.target.value })}
                    />
                  )}
                </Field>
                <Field label="Messages per minute for everyone" error={errors.appRateLimitPerMinute}>
                  {(props) => (
                    <Input
                      {...props}
                      value={form.appRateLimitPerMinute}
                      disabled={!editable}
                      inputMode="numeric"
                      className="w-28"
                      onChange={(e) => edit({ appRateLimitPerMinute: e.target.value })}
                    />
                  )}
                </Field>
              </div>
              <Field
                label="Monthly spending cap (USD)"
                error={errors.monthlyCapUsd}
                hint="What its runs may spend a calendar month. Empty: no cap of its own."
              >
                {(props) => (
                  <Input
                    {...props}
                    value={form.monthlyCapUsd}
                    disabled={!editable}
                    inputMode="decimal"
                    placeholder="No cap"
                    className="w-36"
                    onChange={(e) => edit({ monthlyCapUsd: e.target.value })}
                  />
                )}
              </Field>
            </div>
          )}

          {banner && (
            <p role="alert" className="text-xs wrap-anywhere text-destructive">
              {banner}
            </p>
          )}
          {editable && (
            <Button type="button" size="sm" disabled={!draft || save.isPending} onClick={onSave}>
              {save.isPending ? 'Saving...' : 'Save chat app'}
            </Button>
          )}
          {saved && workflowId && conversationsOpen && (
            <Suspense fallback={null}>
              <ChatConversationsDialog
                workflowId={workflowId}
                appName={saved.name}
                manager={manager}
                open={conversationsOpen}
                onOpenChange={setConversationsOpen}
              />
            </Suspense>
          )}
        </>
      )}
    </section>
  );
}
