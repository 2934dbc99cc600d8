import { and, asc, desc, eq, isNull, lte, or, gt, sql, type SQL } from 'drizzle-orm';
import { datasetItems, datasets, type Db } from '@crewline/db';
import type { Dataset, DatasetItem } from '@crewline/contracts';
import { violatesUnique } from '../../platform/unique-violation';

type DatasetRow = typeof datasets.$inferSelect;
type ItemRow = typeof datasetItems.$inferSelect;

/** An item to add: its input, expected answer, tags, and the run it was taken from. */
export type NewItem = {
  input: Record<string, unknown>;
  expected?: unknown;
  tags: string[];
  sourceExecutionId?: string | null;
};

const DATASET_NAME_UNIQUE = 'datasets_organization_id_name_unique';
export const isDatasetNameTaken = (error: unknown) => violatesUnique(error, DATASET_NAME_UNIQUE);

/** The items of the dataset at `version`: added by then and not removed by then. */
const itemsAtVersion = (version: SQL | number) =>
  and(
    lte(datasetItems.addedIn, version),
    or(isNull(datasetItems.removedIn), gt(datasetItems.removedIn, version)),
  );

/** Its current items (the ones not removed). */
const current = isNull(datasetItems.removedIn);

// Named in full: inside a subquery Drizzle leaves columns unqualified.
const itemCount = sql<number>`(select count(*) from dataset_items i
  where i.dataset_id = "datasets"."id" and i.removed_in is null)`.mapWith(Number);

const toDataset = (row: DatasetRow, count: number): Dataset => ({
  id: row.id,
  name: row.name,
  description: row.description,
  version: row.version,
  itemCount: count,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const toItem = (row: ItemRow): DatasetItem => ({
  id: row.id,
  input: row.input,
  expected: row.expected ?? null,
  tags: row.tags,
  sourceExecutionId: row.sourceExecutionId,
  createdAt: row.createdAt.toISOString(),
});

/**
 * Datasets and their items. Items never change: adding or removing raises the dataset's version in
 * the same transaction, under the dataset row's lock, so two writers cannot give one version two
 * meanings (docs/product-rules.md, Evaluations).
 */
export function createDatasetsRepository(db: Db) {
  const scoped = (organizationId: string, id: string) =>
    and(eq(datasets.organizationId, organizationId), eq(datasets.id, id));

  async function get(organizationId: string, id: string): Promise<Dataset | undefined> {
    const [row] = await db
      .select({ dataset: datasets, itemCount })
      .from(datasets)
      .where(scoped(organizationId, id))
      .limit(1);
    return row && toDataset(row.dataset, row.itemCount);
  }

  /**
   * Runs `write` on the locked dataset row, then raises its version: what `write` adds or removes
   * belongs to the new version (`write` gets it). Undefined when there is no such dataset.
   */
  async function change<T>(
    organizationId: string,
    id: string,
    write: (
      tx: Parameters<Parameters<Db['transaction']>[0]>[0],
      version: number,
      currentCount: number,
    ) => Promise<T>,
  ): Promise<{ result: T; dataset: Dataset } | undefined> {
    return db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ version: datasets.version })
        .from(datasets)
        .where(scoped(organizationId, id))
        .for('update');
      if (!locked) return undefined;
      const [{ count }] = await tx
        .select({ count: sql<number>`count(*)`.mapWith(Number) })
        .from(datasetItems)
        .where(and(eq(datasetItems.datasetId, id), current));
      const version = locked.version + 1;
      const result = await write(tx, version, count);
      const [row] = await tx
        .update(datasets)
        .set({ version, updatedAt: new Date() })
        .where(eq(datasets.id, id))
        .returning();
      const [{ after }] = await tx
        .select({ after: sql<number>`count(*)`.mapWith(Number) })
        .from(datasetItems)
        .where(and(eq(datasetItems.datasetId, id), current));
      return { result, dataset: toDataset(row, after) };
    });
  }

  return {
    async list(organizationId: string): Promise<Dataset[]> {
      const rows = await db
        .select({ dataset: datasets, itemCount })
        .from(datasets)
        .where(eq(datasets.organizationId, organizationId))
        .orderBy(desc(datasets.updatedAt));
      return rows.map((row) => toDataset(row.dataset, row.itemCount));
    },

    get,

    async create(
      organizationId: string,
      userId: string,
      values: { name: string; description?: string | null },
    ): Promise<Dataset> {
      const [row] = await db
        .insert(datasets)
        .values({ organizationId, createdBy: userId, name: values.name, description: values.description })
        .returning();
      return toDataset(row, 0);
    },

    async update(
      organizationId: string,
      id: string,
      values: { name?: string; description?: string | null },
    ): Promise<Dataset | undefined> {
      const [row] = await db
        .update(datasets)
        .set({ ...values, updatedAt: new Date() })
        .where(scoped(organizationId, id))
        .returning({ id: datasets.id });
      return row && get(organizationId, id);
    },

    async remove(organizationId: string, id: string): Promise<boolean> {
      const rows = await db.delete(datasets).where(scoped(organizationId, id)).returning({ id: datasets.id });
      return rows.length > 0;
    },

    /** Its current items, in the order they were added. */
    async items(organizationId: string, id: string): Promise<DatasetItem[]> {
      const rows = await db
        .select()
        .from(datasetItems)
        .where(and(eq(datasetItems.organizationId, organizationId), eq(datasetItems.datasetId, id), current))
        .orderBy(asc(datasetItems.position));
      return rows.map(toItem);
    },

    /** The items of version `version`, in order (what an eval run runs). */
    async itemsAt(datasetId: string, version: number): Promise<ItemRow[]> {
      return db
        .select()
        .from(datasetItems)
        .where(and(eq(datasetItems.datasetId, datasetId), itemsAtVersion(version)))
        .orderBy(asc(datasetItems.position));
    },

    /**
     * Adds the items as the next version, unless the dataset would then hold more than `max`
     * (answered `full`, nothing added).
     */
    async addItems(organizationId: string, id: string, items: NewItem[], max: number) {
      return change(organizationId, id, async (tx, version, count) => {
        if (count + items.length > max) return { full: true as const, added: 0 };
        const [{ last }] = await tx
          .select({ last: sql<number>`coalesce(max(${datasetItems.position}), 0)`.mapWith(Number) })
          .from(datasetItems)
          .where(eq(datasetItems.datasetId, id));
        // Inserted in slices: a statement has at most 65,535 parameters.
        for (let start = 0; start < items.length; start += 1000) {
          await tx.insert(datasetItems).values(
            items.slice(start, start + 1000).map((item, index) => ({
              datasetId: id,
              organizationId,
              position: last + start + index + 1,
              input: item.input,
              expected: item.expected ?? null,
              tags: item.tags,
              addedIn: version,
              sourceExecutionId: item.sourceExecutionId ?? null,
            })),
          );
        }
        return { full: false as const, added: items.length };
      });
    },

    /** Removes the item from the next version (versions before keep it). False when it is not current. */
    async removeItem(organizationId: string, id: string, itemId: string) {
      return change(organizationId, id, async (tx, version) => {
        const removed = await tx
          .update(datasetItems)
          .set({ removedIn: version })
          .where(and(eq(datasetItems.datasetId, id), eq(datasetItems.id, itemId), current))
          .returning({ id: datasetItems.id });
        if (removed.length === 0) throw new ItemNotCurrent();
        return true;
      }).catch((error) => {
        if (error instanceof ItemNotCurrent) return undefined;
        throw error;
      });
    },
  };
}
export type DatasetsRepository = ReturnType<typeof createDatasetsRepository>;

/** Rolls back a removal that found no current item (so the version is not raised for nothing). */
class ItemNotCurrent extends Error {}
