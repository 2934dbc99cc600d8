// Upload: a drop zone that is also a file picker (many files at once), and a row per file with its
// progress bar, or the reason it was refused.
import { CircleAlert, CircleCheck, FileUp, X } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';

import { formatBytes, KNOWLEDGE_EXTENSIONS_TEXT, KNOWLEDGE_FILE_ACCEPT } from '../knowledge-files';
import { summarizeUploads, uploadStatusText, type UploadItem } from '../upload-state';

export function UploadDropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  };

  return (
    <div
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="upload-drop-zone"
      className={cn(
        'flex flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed px-6 py-8 text-center transition-colors',
        dragging ? 'border-primary bg-primary/5' : 'border-border bg-muted/20',
      )}
    >
      <span className="grid size-11 place-items-center rounded-full bg-primary/10 text-primary">
        <FileUp className="size-5" aria-hidden="true" />
      </span>
      <div className="space-y-1">
        <p className="font-medium">Drop files here to upload</p>
        <p className="text-sm text-muted-foreground">
          {KNOWLEDGE_EXTENSIONS_TEXT} · up to 20 MiB each · many at once
        </p>
      </div>
      <Button type="button" variant="outline" size="sm" onClick={() => input.current?.click()}>
        Choose Files
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        accept={KNOWLEDGE_FILE_ACCEPT}
        aria-label="Upload files"
        className="sr-only"
        tabIndex={-1}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // The same file may be picked again after a failure.
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </div>
  );
}

function UploadRow({ item, onDismiss }: { item: UploadItem; onDismiss: (id: string) => void }) {
  const failed = item.phase === 'failed' || item.phase === 'rejected';
  const done = item.phase === 'done';
  const text = uploadStatusText(item);
  return (
    <li className="flex items-center gap-3 px-4 py-3" data-testid="upload-row" data-phase={item.phase}>
      {failed ? (
        <CircleAlert className="size-4 shrink-0 text-destructive" aria-hidden="true" />
      ) : done ? (
        <CircleCheck className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      ) : (
        <FileUp className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      )}
      <div className="min-w-0 flex-1 space-y-1.5">
        <div className="flex items-baseline justify-between gap-3 text-sm">
          <span className="truncate font-medium" title={item.name}>
            {item.name}
          </span>
          <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
            {formatBytes(item.sizeBytes)}
          </span>
        </div>
        {!failed && (
          <Progress
            value={Math.round(item.progress * 100)}
            aria-label={`Upload of ${item.name}`}
            className={cn('h-1.5', done && '[&>[data-slot=progress-indicator]]:bg-emerald-500')}
          />
        )}
        <p className={cn('text-xs', failed ? 'text-destructive' : 'text-muted-foreground')}>{text}</p>
      </div>
      {(failed || done) && (
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-7 shrink-0"
          aria-label={`Dismiss ${item.name}`}
          onClick={() => onDismiss(item.id)}
        >
          <X aria-hidden="true" />
        </Button>
      )}
    </li>
  );
}

/** The files of this visit's uploads, newest first; Clear finished removes the ended rows. */
export function UploadList({
  items,
  onDismiss,
  onClearFinished,
}: {
  items: readonly UploadItem[];
  onDismiss: (id: string) => void;
  onClearFinished: () => void;
}) {
  if (items.length === 0) return null;
  const summary = summarizeUploads(items);
  return (
    <section aria-label="Uploads" className="overflow-hidden rounded-xl border bg-card">
      <div className="flex items-center justify-between gap-3 border-b px-4 py-2.5 text-sm">
        <p className="text-muted-foreground" aria-live="polite">
          {summary.active > 0 ? `Uploading ${summary.active} · ` : ''}
          {summary.done} uploaded{summary.failed > 0 ? ` · ${summary.failed} failed` : ''}
        </p>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={summary.done + summary.failed === 0}
          onClick={onClearFinished}
        >
          Clear finished
        </Button>
      </div>
      <ul className="max-h-80 divide-y overflow-y-auto">
        {items.map((item) => (
          <UploadRow key={item.id} item={item} onDismiss={onDismiss} />
        ))}
      </ul>
    </section>
  );
}
