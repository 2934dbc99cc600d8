import { desc } from 'drizzle-orm';
import { salesInquiries, type Db } from '@crewline/db';
import type { SalesInquiry, SalesInquiryData } from '@crewline/contracts';

/** How many inquiries the operator's list shows (newest first). */
const LIST_LIMIT = 500;

export function createSalesRepository(db: Db) {
  return {
    async create(inquiry: SalesInquiryData): Promise<{ id: string }> {
      const [row] = await db.insert(salesInquiries).values(inquiry).returning({ id: salesInquiries.id });
      return row;
    },

    async list(): Promise<SalesInquiry[]> {
      const rows = await db
        .select()
        .from(salesInquiries)
        .orderBy(desc(salesInquiries.createdAt))
        .limit(LIST_LIMIT);
      return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
    },
  };
}
export type SalesRepository = ReturnType<typeof createSalesRepository>;
