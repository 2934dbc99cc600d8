// The documentation's typography: paragraphs, lists, inline code, code blocks with a copy button,
// callouts, tables and numbered steps. Plain elements with Tailwind classes, no markdown renderer.
import { Info, Lightbulb, TriangleAlert, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { CopyButton } from '@/components/copy-button';
import { cn } from '@/lib/utils';

export function P({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p className={cn('leading-7 text-foreground/85 [&:not(:first-child)]:mt-4', className)}>{children}</p>
  );
}

export function H3({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <h3 id={id} className="mt-8 scroll-mt-24 text-lg font-semibold tracking-tight text-foreground">
      {children}
    </h3>
  );
}

export function UL({ children }: { children: ReactNode }) {
  return (
    <ul className="mt-4 ml-5 list-disc space-y-2 leading-7 text-foreground/85 marker:text-muted-foreground/70">
      {children}
    </ul>
  );
}

/** Inline code: an identifier, a path, a header name. */
export function C({ children }: { children: ReactNode }) {
  return (
    <code className="rounded-md border border-border/60 bg-muted/70 box-decoration-clone px-1.5 py-0.5 font-mono text-[0.85em] break-words text-foreground">
      {children}
    </code>
  );
}

/** A label the reader sees on screen (a button, a tab, a field). */
export function UI({ children }: { children: ReactNode }) {
  return <strong className="font-semibold text-foreground">{children}</strong>;
}

const linkClass =
  'font-medium text-primary underline decoration-primary/30 underline-offset-4 transition-colors hover:decoration-primary';

/** A link inside the app (client-side), or a plain one when `reload` (pages the server serves). */
export function A({ href, children, reload }: { href: string; children: ReactNode; reload?: boolean }) {
  if (reload || !href.startsWith('/')) {
    return (
      <a href={href} className={linkClass}>
        {children}
      </a>
    );
  }
  return (
    <Link to={href} className={linkClass}>
      {children}
    </Link>
  );
}

/** A block of code with its language (or file name) and a copy button. */
export function CodeBlock({
  code: source,
  label,
  copyLabel,
}: {
  /** The text, or a function of this page's origin (examples that call this instance). */
  code: string | ((origin: string) => string);
  /** Shown in the block's header: 'shell', 'json', 'run-workflow.mjs'. */
  label: string;
  /** What the copy button names ('Copy {copyLabel}'). */
  copyLabel: string;
}) {
  const code = typeof source === 'string' ? source : source(window.location.origin);
  return (
    <figure className="mt-5 overflow-hidden rounded-xl border border-zinc-800 bg-zinc-950 shadow-sm dark:border-white/10 dark:bg-zinc-900/70">
      <figcaption className="flex items-center justify-between gap-3 border-b border-white/10 py-1 pr-1.5 pl-4">
        <span className="font-mono text-xs text-zinc-400">{label}</span>
        <span className="text-zinc-300 [&_button]:hover:bg-white/10 [&_button]:hover:text-white">
          <CopyButton value={code} label={copyLabel} size="md" />
        </span>
      </figcaption>
      <pre className="overflow-x-auto p-4 text-[13px] leading-6 text-zinc-100">
        <code className="font-mono">{code}</code>
      </pre>
    </figure>
  );
}

const calloutTones: Record<
  'note' | 'tip' | 'warning',
  { icon: LucideIcon; className: string; title: string }
> = {
  note: {
    icon: Info,
    title: 'Note',
    className: 'border-sky-500/30 bg-sky-500/5 [&_svg]:text-sky-600 dark:[&_svg]:text-sky-400',
  },
  tip: {
    icon: Lightbulb,
    title: 'Tip',
    className: 'border-violet-500/30 bg-violet-500/5 [&_svg]:text-violet-600 dark:[&_svg]:text-violet-400',
  },
  warning: {
    icon: TriangleAlert,
    title: 'Important',
    className: 'border-amber-500/40 bg-amber-500/5 [&_svg]:text-amber-600 dark:[&_svg]:text-amber-400',
  },
};

export function Callout({
  tone = 'note',
  title,
  children,
}: {
  tone?: 'note' | 'tip' | 'warning';
  title?: string;
  children: ReactNode;
}) {
  const { icon: Icon, className, title: defaultTitle } = calloutTones[tone];
  return (
    <aside className={cn('mt-5 flex gap-3 rounded-xl border p-4 text-sm leading-6', className)}>
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 text-foreground/85">
        <p className="font-semibold text-foreground">{title ?? defaultTitle}</p>
        <div className="mt-1 space-y-2">{children}</div>
      </div>
    </aside>
  );
}

/** A table that scrolls sideways on a narrow screen instead of squeezing its columns. */
export function Table({
  head,
  rows,
  caption,
}: {
  head: readonly ReactNode[];
  rows: readonly (readonly ReactNode[])[];
  caption?: string;
}) {
  return (
    <div className="mt-5 overflow-x-auto rounded-xl border">
      <table className="w-full min-w-[32rem] border-collapse text-left text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className="bg-muted/50">
          <tr>
            {head.map((cell, i) => (
              <th key={i} scope="col" className="px-4 py-2.5 leading-6 font-semibold text-foreground">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r} className="border-t align-top">
              {row.map((cell, c) =>
                c === 0 ? (
                  <th
                    key={c}
                    scope="row"
                    className="px-4 py-2.5 leading-6 font-medium whitespace-nowrap text-foreground"
                  >
                    {cell}
                  </th>
                ) : (
                  <td key={c} className="px-4 py-2.5 leading-6 text-foreground/85">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Numbered steps with a vertical rail, for a procedure. */
export function Steps({ children }: { children: ReactNode }) {
  return <ol className="mt-6 space-y-8 [counter-reset:step]">{children}</ol>;
}

export function Step({ title, children }: { title: string; children: ReactNode }) {
  return (
    <li className="relative pl-11 [counter-increment:step] before:absolute before:top-0 before:left-0 before:grid before:size-7 before:place-items-center before:rounded-full before:bg-primary/10 before:text-sm before:font-semibold before:text-primary before:content-[counter(step)] after:absolute after:top-9 after:bottom-[-1.5rem] after:left-3.5 after:w-px after:bg-border last:after:hidden">
      <h3 className="text-base leading-7 font-semibold text-foreground">{title}</h3>
      <div className="mt-1 text-foreground/85">{children}</div>
    </li>
  );
}
