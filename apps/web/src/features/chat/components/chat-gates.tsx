// What the page shows instead of the conversation: the password form of a password app, the way to
// sign in for a members-only app, and a full page when the app is missing, off or unreachable.
import { LockKeyhole, LogIn, MessageCircleOff } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';

import { buttonVariants } from '@/components/ui/button-variants';

import { CHAT_TEXTS } from '../chat-texts';

const accentButton =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-(--chat-accent) px-5 text-sm font-medium text-(--chat-accent-foreground) shadow-sm transition-opacity hover:opacity-90 focus-visible:ring-2 focus-visible:ring-(--chat-accent)/50 focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none disabled:opacity-50';

/** A centered card under the app's name. */
function GateCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-10">
      <div className="w-full max-w-sm space-y-4 text-center">
        <span className="mx-auto grid size-12 place-items-center rounded-full bg-(--chat-accent)/12 text-(--chat-accent)">
          {icon}
        </span>
        <h2 className="text-lg font-semibold tracking-tight">{title}</h2>
        {children}
      </div>
    </div>
  );
}

export function PasswordGate({ onUnlock }: { onUnlock: (password: string) => Promise<string | null> }) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password || pending) return;
    setPending(true);
    const refusal = await onUnlock(password);
    setPending(false);
    setError(refusal);
  };

  return (
    <GateCard icon={<LockKeyhole className="size-5" aria-hidden="true" />} title="Password">
      <form className="space-y-3 text-left" onSubmit={(event) => void submit(event)}>
        <p className="text-center text-sm text-muted-foreground">{CHAT_TEXTS.password}</p>
        <label htmlFor={id} className="sr-only">
          Password
        </label>
        <input
          id={id}
          type="password"
          autoComplete="current-password"
          value={password}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          placeholder="Password"
          className="h-10 w-full rounded-lg border border-input bg-background px-3 text-base outline-none focus:border-(--chat-accent) focus:ring-2 focus:ring-(--chat-accent)/25 aria-invalid:border-destructive dark:bg-input/30"
          onChange={(event) => {
            setPassword(event.target.value);
            setError(null);
          }}
        />
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <button type="submit" className={`${accentButton} w-full`} disabled={!password || pending}>
          {pending ? 'Checking…' : 'Continue'}
        </button>
      </form>
    </GateCard>
  );
}

export function SignInGate({ text, href, embedded }: { text: string; href: string; embedded: boolean }) {
  return (
    <GateCard icon={<LogIn className="size-5" aria-hidden="true" />} title="Members only">
      <p className="text-sm text-muted-foreground">{text}</p>
      {/* In a widget the sign-in opens in a tab of its own: a login page inside another site's frame is no place to type a password. */}
      <a
        href={href}
        className={accentButton}
        {...(embedded && { target: '_blank', rel: 'noopener noreferrer' })}
      >
        Sign in
      </a>
    </GateCard>
  );
}

/** The whole page when there is no chat to show: missing, switched off, or not reachable. */
export function ChatUnavailable({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="flex min-h-svh flex-col items-center justify-center gap-4 bg-background px-6 text-center text-foreground">
      <title>Chat unavailable</title>
      <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
        <MessageCircleOff className="size-5" aria-hidden="true" />
      </span>
      <h1 className="max-w-sm text-lg font-semibold tracking-tight text-balance">{message}</h1>
      {onRetry && (
        <button type="button" className={buttonVariants({ variant: 'outline' })} onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
