import { integrations } from '../content/landing-content';

/** "Works with" strip: integration names drawn with icons (no external images). */
export function LogosStrip() {
  return (
    <section
      id="integrations"
      aria-labelledby="integrations-title"
      className="scroll-mt-20 border-y border-border/60 bg-muted/30"
    >
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
        <h2 id="integrations-title" className="text-center text-sm font-medium text-muted-foreground">
          Connects to the models and tools your team already uses
        </h2>
        <ul className="mt-6 grid grid-cols-2 gap-x-6 gap-y-5 sm:grid-cols-4 lg:grid-cols-8">
          {integrations.map(({ name, icon: Icon }) => (
            <li
              key={name}
              className="flex items-center justify-center gap-2 text-muted-foreground transition-colors hover:text-foreground"
            >
              <Icon className="size-5 shrink-0" aria-hidden="true" />
              <span className="text-sm font-semibold tracking-tight whitespace-nowrap">{name}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
