import {
  DATASET_MAX_ITEMS,
  type createDatasetSchema,
  datasetItemInputSchema,
  evaluationMessages,
  graderSchema,
  type Dataset,
  type DatasetImportQuery,
  type DatasetImportResult,
  type DatasetItemList,
  type Execution,
} from '@crewline/contracts';
import type { z } from 'zod';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors';
import { isUuid, requireUuid } from '../../platform/ids';
import type { ExecutionsService } from '../executions/executions.service';
import { isDatasetNameTaken, type DatasetsRepository, type NewItem } from './datasets.repository';
import { readDatasetFile } from './import/read-dataset-file';

/** How many runs 'Add to dataset' reads at once. */
const READS_AT_ONCE = 10;

/** A run's result as a case's expected answer: text as it is, JSON as JSON. */
const expectedOf = (run: Execution): unknown => run.result ?? undefined;

/**
 * Datasets (docs/product-rules.md, Evaluations): named per organization, their items added by hand,
 * from past runs or from a file, each change a new version.
 */
export function createDatasetsService(deps: {
  repository: DatasetsRepository;
  executions: Pick<ExecutionsService, 'get'>;
}) {
  const { repository } = deps;

  async function get(organizationId: string, id: string): Promise<Dataset> {
    const dataset = await repository.get(organizationId, requireUuid(id, evaluationMessages.datasetNotFound));
    if (!dataset) throw new NotFoundError(evaluationMessages.datasetNotFound);
    return dataset;
  }

  const nameTaken = (error: unknown) => {
    if (isDatasetNameTaken(error)) throw new ConflictError(evaluationMessages.datasetNameTaken);
    throw error;
  };

  async function add(organizationId: string, id: string, items: NewItem[]) {
    const dataset = await get(organizationId, id);
    if (items.length === 0) return { added: 0, dataset };
    const changed = await repository.addItems(organizationId, dataset.id, items, DATASET_MAX_ITEMS);
    if (!changed) throw new NotFoundError(evaluationMessages.datasetNotFound);
    if (changed.result.full) throw new BadRequestError(evaluationMessages.datasetFull);
    return { added: changed.result.added, dataset: changed.dataset };
  }

  return {
    list: (organizationId: string) => repository.list(organizationId),
    get,

    create: (organizationId: string, userId: string, input: z.output<typeof createDatasetSchema>) =>
      repository.create(organizationId, userId, input).catch(nameTaken),

    async update(
      organizationId: string,
      id: string,
      patch: { name?: string; description?: string | null },
    ): Promise<Dataset> {
      const dataset = await get(organizationId, id);
      const updated = await repository.update(organizationId, dataset.id, patch).catch(nameTaken);
      if (!updated) throw new NotFoundError(evaluationMessages.datasetNotFound);
      return updated;
    },

    async remove(organizationId: string, id: string): Promise<void> {
      if (!(await repository.remove(organizationId, requireUuid(id, evaluationMessages.datasetNotFound))))
        throw new NotFoundError(evaluationMessages.datasetNotFound);
    },

    async items(organizationId: string, id: string): Promise<DatasetItemList> {
      const dataset = await get(organizationId, id);
      return { dataset, items: await repository.items(organizationId, dataset.id) };
    },

    addItems: (organizationId: string, id: string, items: z.output<typeof datasetItemInputSchema>[]) =>
      add(organizationId, id, items),

    async removeItem(organizationId: string, id: string, itemId: string): Promise<void> {
      const dataset = await get(organizationId, id);
      const removed = isUuid(itemId)
        ? await repository.removeItem(organizationId, dataset.id, itemId.toLowerCase())
        : undefined;
      if (!removed) throw new NotFoundError(evaluationMessages.itemNotFound);
    },

    /**
     * Cases from past runs of the organization: each run's input, and with `useResultAsExpected` its
     * result as the expected answer. Runs of another organization (or none) are not found (404 when
     * none of them is).
     */
    async fromExecutions(
      organizationId: string,
      id: string,
      request: { executionIds: string[]; useResultAsExpected: boolean },
    ) {
      const ids = [...new Set(request.executionIds)];
      const runs: Execution[] = [];
      for (let start = 0; start < ids.length; start += READS_AT_ONCE) {
        const read = await Promise.all(
          ids
            .slice(start, start + READS_AT_ONCE)
            .map((executionId) => deps.executions.get(organizationId, executionId).catch(() => undefined)),
        );
        runs.push(...read.filter((run) => run !== undefined));
      }
      if (runs.length === 0) throw new NotFoundError(evaluationMessages.noExecutions);
      // In the order they were asked for.
      runs.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
      return add(
        organizationId,
        id,
        runs.map((run) => ({
          input: run.input,
          expected: request.useResultAsExpected ? expectedOf(run) : undefined,
          tags: [],
          sourceExecutionId: run.id,
        })),
      );
    },

    /**
     * A CSV, JSONL or OpenAI Evals file read into items (import/read-dataset-file.ts): with
     * `preview`, what would be added (nothing is); otherwise the items are added as one version.
     */
    async importFile(
      organizationId: string,
      id: string,
      contentType: string,
      body: unknown,
      query: DatasetImportQuery,
    ): Promise<DatasetImportResult> {
      const dataset = await get(organizationId, id);
      const file = await readDatasetFile(contentType, body, query);
      const items = file.items.map((item) => datasetItemInputSchema.parse(item));
      // Postgres keeps no NUL in text or JSON: refused here rather than failing at the insert.
      if (JSON.stringify(items).includes('\\u0000'))
        throw new BadRequestError(evaluationMessages.unreadableFile('it holds NUL characters'));
      const answer = {
        format: file.format,
        columns: file.columns,
        sample: items.slice(0, 5),
        total: items.length,
        graders: file.graders.map((grader) => graderSchema.parse(grader)),
        skipped: file.skipped,
      } as const;
      if (query.preview === 'true') return { ...answer, added: 0, dataset };
      const added = await add(organizationId, dataset.id, items);
      return { ...answer, added: added.added, dataset: added.dataset };
    },
  };
}
export type DatasetsService = ReturnType<typeof createDatasetsService>;
