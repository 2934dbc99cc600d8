// Validate's report over the canvas: the errors and the warnings (loaded with the first report).
import { AlertTriangle, CheckCircle2, X, XCircle } from 'lucide-react';

type ValidationReport = { errors: string[]; warnings: string[] };

export function ValidationPanel({ report, onClose }: { report: ValidationReport; onClose: () => void }) {
  const ok = report.errors.length === 0;
  return (
    <div
      role="region"
      aria-label="Validation results"
      className="absolute top-4 left-1/2 z-10 w-[min(30rem,calc(100%-2rem))] -translate-x-1/2 rounded-xl border bg-card p-4 shadow-lg"
    >
      <div className="mb-2 flex items-start justify-between gap-3">
        <div className="flex items-center gap-2">
          {ok ? (
            <CheckCircle2 className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          ) : (
            <XCircle className="size-5 text-destructive" aria-hidden="true" />
          )}
          <h2 className="text-sm font-semibold">{ok ? 'Validation Passed' : 'Validation Failed'}</h2>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close validation results"
          className="rounded p-1 text-muted-foreground hover:bg-muted hover:text-foreground"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
      {ok && report.warnings.length === 0 && (
        <p className="text-sm text-muted-foreground">No problems found. The workflow is ready to activate.</p>
      )}
      {report.errors.length > 0 && (
        <ul className="mb-2 space-y-1 text-sm">
          {report.errors.map((error) => (
            <li key={error} className="flex gap-2 text-destructive">
              <XCircle className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
              {error}
            </li>
          ))}
        </ul>
      )}
      {report.warnings.length > 0 && (
        <div className="space-y-1">
          <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Warnings</p>
          <ul className="max-h-40 space-y-1 overflow-y-auto text-sm">
            {report.warnings.map((warning) => (
              <li key={warning} className="flex gap-2 text-amber-700 dark:text-amber-400">
                <AlertTriangle className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
                {warning}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
