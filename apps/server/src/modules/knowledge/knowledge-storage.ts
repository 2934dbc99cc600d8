import { sql } from 'drizzle-orm';
import { lockForTransaction, type Tx } from '@crewline/db';
import { planDisplayNames, type PlanId } from '@crewline/contracts';
import { formatBytes } from '@crewline/contracts/format-bytes';

/*
 * An organization's knowledge storage (its plan's `knowledgeStorageBytes`): each document counts as
 * the larger of its upload (`size_bytes`: the text sent, or the PDF's bytes) and the text read from it
 * (`text_bytes`, once ready). The upload is what is stored as sent; the text is what is cut into
 * chunks and embedded, and a small PDF can hold far more of it. Adding a document and storing a
 * document's chunks both decide under the organization's lock (lockStorage), so documents added or
 * finished at once never take it past its quota.
 */

/** The plan's quota (null: unlimited) and the plan it comes from ('free' without one). */
export type StorageLimit = { maxBytes: number | null; plan: PlanId | 'free' };

/** One document's share of the storage. */
export const storageOf = (sizeBytes: number, textBytes: number) => Math.max(sizeBytes, textBytes);

/** Serializes the storage decisions of one organization until the transaction ends. */
export async function lockStorage(tx: Pick<Tx, 'execute'>, organizationId: string): Promise<void> {
  await lockForTransaction(tx, `knowledge_storage|${organizationId}`);
}

/** Bytes the organization's documents take, leaving out one document (the one being stored) if named. */
export async function storageUsed(
  tx: Pick<Tx, 'execute'>,
  organizationId: string,
  exceptDocumentId?: string,
): Promise<number> {
  const except = exceptDocumentId ? sql`and id <> ${exceptDocumentId}` : sql``;
  const { rows } = await tx.execute<{ used: string }>(sql`
    select coalesce(sum(greatest(size_bytes, text_bytes)), 0)::bigint as used
    from knowledge_documents where organization_id = ${organizationId} ${except}`);
  return Number(rows[0].used);
}

/** The 402 of an upload that does not fit. */
export const uploadOverQuota = (plan: StorageLimit['plan'], maxBytes: number, used: number) =>
  `Your ${planDisplayNames[plan]} plan allows ${formatBytes(maxBytes)} of knowledge storage and ` +
  `${formatBytes(used)} is in use: this document does not fit. Delete documents or upgrade your plan to add more.`;

/** The reason of a document whose text does not fit. */
export const textOverQuota = (plan: StorageLimit['plan'], maxBytes: number, textBytes: number) =>
  `The document’s text (${formatBytes(textBytes)}) does not fit in the ${formatBytes(maxBytes)} of ` +
  `knowledge storage your ${planDisplayNames[plan]} plan allows. Delete documents or upgrade your plan, then add it again.`;
