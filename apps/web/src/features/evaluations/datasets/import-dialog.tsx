// Import: a CSV, JSONL or OpenAI Evals file. The server reads it first as a preview (nothing added):
// its format, its columns (each mapped to the input, the expected answer, the tags, or left out), the
// first items as they would be added, what it skipped and, for an OpenAI Evals export, the graders it
// converted. Each change of the mapping previews again; 'Import N items' adds them as one version.
import { DATASET_IMPORT_MAX_BYTES, type DatasetImportResult } from '@crewline/contracts';
import { formatBytes } from '@crewline/contracts/format-bytes';
import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';

import { FormBanner } from '@/components/form-dialog-parts';
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
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';

import { useImportItems, usePreviewImport } from '../api/dataset-import';
import { Field } from '../evaluation-form/field';
import {
  columnRoleLabels,
  columnRoleValues,
  convertedGradersText,
  IMPORT_ACCEPT,
  importContentType,
  importQuery,
  initialMapping,
  isPlainMapping,
  itemCountText,
  withColumnRole,
  type ColumnRole,
  type ImportContentType,
  type ImportMapping,
} from './import-mapping';
import { compactJson } from './item-draft';

const FORMAT_LABELS: Record<DatasetImportResult['format'], string> = {
  csv: 'CSV',
  jsonl: 'JSONL',
  openai_evals: 'OpenAI Evals export',
};

export function ImportDialog({
  datasetId,
  open,
  onOpenChange,
  onImported,
}: {
  datasetId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the items were added (an OpenAI Evals export's graders can then start an evaluation). */
  onImported?: (answer: DatasetImportResult) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Import items</DialogTitle>
          <DialogDescription>
            A CSV or JSONL file (one case a row or line), or an OpenAI Evals export.
          </DialogDescription>
        </DialogHeader>
        {open && (
          <ImportForm datasetId={datasetId} onDone={() => onOpenChange(false)} onImported={onImported} />
        )}
      </DialogContent>
    </Dialog>
  );
}

type Picked = { file: File; contentType: ImportContentType };

function ImportForm({
  datasetId,
  onDone,
  onImported,
}: {
  datasetId: string;
  onDone: () => void;
  onImported?: (answer: DatasetImportResult) => void;
}) {
  const preview = usePreviewImport();
  const importItems = useImportItems();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>([]);
  const [result, setResult] = useState<DatasetImportResult | null>(null);
  const [banner, setBanner] = useState<string | null>(null);

  /** Previews the file with a mapping; only the newest request's answer is shown. */
  const previewWith = (target: Picked, next: ImportMapping, first = false) => {
    setBanner(null);
    preview.mutate(
      { datasetId, file: target.file, contentType: target.contentType, query: importQuery(next) },
      {
        onSuccess: (answer) => {
          setResult(answer);
          if (!first || answer.format === 'openai_evals') return;
          // The columns are known now: a column named like an answer or tags starts mapped so.
          const guessed = initialMapping(answer.columns);
          setMapping(guessed);
          if (!isPlainMapping(guessed)) previewWith(target, guessed);
        },
        onError: (error) => {
          setResult(null);
          setBanner(getErrorMessage(error, 'This file could not be read'));
        },
      },
    );
  };

  const choose = (file: File | undefined) => {
    setResult(null);
    setMapping([]);
    setPicked(null);
    if (!file) return;
    const contentType = importContentType(file.name);
    if (!contentType) {
      setFileError('Choose a .csv, .jsonl or .json file');
      return;
    }
    if (file.size > DATASET_IMPORT_MAX_BYTES) {
      setFileError(`This file is larger than ${formatBytes(DATASET_IMPORT_MAX_BYTES)}`);
      return;
    }
    setFileError(null);
    const next = { file, contentType };
    setPicked(next);
    previewWith(next, [], true);
  };

  const changeRole = (column: string, role: ColumnRole) => {
    if (!picked) return;
    const next = withColumnRole(mapping, column, role);
    setMapping(next);
    previewWith(picked, next);
  };

  const submit = () => {
    if (!picked || !result) return;
    setBanner(null);
    importItems.mutate(
      { datasetId, file: picked.file, contentType: picked.contentType, query: importQuery(mapping) },
      {
        onSuccess: (answer) => {
          onDone();
          toast({ title: `Imported ${itemCountText(answer.added)}` });
          onImported?.(answer);
        },
        onError: (error) => setBanner(getErrorMessage(error, 'The import failed')),
      },
    );
  };

  const showMapping = result && result.format !== 'openai_evals' && mapping.length > 0;
  return (
    <div className="grid min-w-0 gap-4">
      <FormBanner message={banner} />
      <Field label="File" error={fileError ?? undefined} hint="CSV, JSONL or JSON, up to 10 MiB">
        {(control) => (
          <Input
            {...control}
            type="file"
            accept={IMPORT_ACCEPT}
            onChange={(event) => choose(event.target.files?.[0])}
          />
        )}
      </Field>

      {preview.isPending && !result && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Spinner /> Reading the file…
        </p>
      )}

      {result && (
        <section aria-label="Preview" className="grid min-w-0 gap-4" aria-busy={preview.isPending}>
          <p className="text-sm" data-testid="import-summary">
            <span className="font-medium">{FORMAT_LABELS[result.format]}</span>
            {' · '}
            {itemCountText(result.total)} in the file
          </p>

          {showMapping && (
            <div className="grid gap-2">
              <h3 className="text-sm font-medium">Columns</h3>
              <div className="overflow-x-auto rounded-lg border">
                <table className="w-full text-sm" aria-label="Column mapping">
                  <thead className="bg-muted/40 text-left text-xs text-muted-foreground">
                    <tr>
                      <th className="px-3 py-2 font-medium">Column</th>
                      <th className="px-3 py-2 font-medium">Becomes</th>
                    </tr>
                  </thead>
                  <tbody>
                    {mapping.map(({ column, role }) => (
                      <tr key={column} className="border-t">
                        <td className="px-3 py-1.5 font-mono text-xs break-all">{column}</td>
                        <td className="px-3 py-1.5">
                          <Select
                            value={role}
                            onValueChange={(next) => changeRole(column, next as ColumnRole)}
                          >
                            <SelectTrigger size="sm" className="w-36" aria-label={`${column} becomes`}>
                              <SelectValue />
                            </SelectTrigger>
                            <SelectContent>
                              {columnRoleValues.map((value) => (
                                <SelectItem key={value} value={value}>
                                  {columnRoleLabels[value]}
                                </SelectItem>
                              ))}
                            </SelectContent>
                          </Select>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          )}

          <div className="grid gap-2">
            <h3 className="text-sm font-medium">
              {result.sample.length < result.total
                ? `The first ${result.sample.length} items as they will be added`
                : 'The items as they will be added'}
            </h3>
            <div className="overflow-x-auto rounded-lg border">
              <table className="w-full text-xs" aria-label="Sample items">
                <thead className="bg-muted/40 text-left text-muted-foreground">
                  <tr>
                    <th className="px-3 py-2 font-medium">Input</th>
                    <th className="px-3 py-2 font-medium">Expected</th>
                    <th className="px-3 py-2 font-medium">Tags</th>
                  </tr>
                </thead>
                <tbody>
                  {result.sample.map((item, index) => (
                    <tr key={index} className="border-t align-top">
                      <td className="max-w-72 truncate px-3 py-1.5 font-mono" title={compactJson(item.input)}>
                        {compactJson(item.input)}
                      </td>
                      <td className="max-w-56 truncate px-3 py-1.5" title={compactJson(item.expected)}>
                        {compactJson(item.expected) || <span className="text-muted-foreground">—</span>}
                      </td>
                      <td className="px-3 py-1.5">{(item.tags ?? []).join(', ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>

          {result.graders.length > 0 && (
            <p className="text-sm" data-testid="import-graders">
              {convertedGradersText(result.graders.length)}
            </p>
          )}
          {result.skipped.length > 0 && (
            <div className="grid gap-1 rounded-lg border border-amber-500/30 bg-amber-500/10 p-3 text-sm text-amber-800 dark:text-amber-300">
              <p className="flex items-center gap-2 font-medium">
                <TriangleAlert className="size-4" aria-hidden="true" />
                Skipped
              </p>
              <ul className="list-disc space-y-0.5 pl-6" aria-label="Skipped">
                {result.skipped.map((reason, index) => (
                  <li key={index}>{reason}</li>
                ))}
              </ul>
            </div>
          )}
        </section>
      )}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={importItems.isPending}>
          Cancel
        </Button>
        <Button
          type="button"
          onClick={submit}
          disabled={!result || result.total === 0 || preview.isPending || importItems.isPending}
          aria-busy={importItems.isPending}
        >
          {importItems.isPending && <Spinner />}
          {result ? `Import ${itemCountText(result.total)}` : 'Import'}
        </Button>
      </DialogFooter>
    </div>
  );
}
