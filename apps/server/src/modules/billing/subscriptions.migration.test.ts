import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrationsFolder } from '@crewline/db';
import { createTestDb, type TestDb } from '../../testing/test-db';

// 0030 moves the subscription columns of organizations into their own table, subscriptions (owned by
// billing): every organization keeps its plan, trial, Stripe ids and payment settings.

let database: TestDb;
const q = (text: string, values: unknown[] = []) => database.pool.query(text, values).then((r) => r.rows);

/** Runs 0030 as the migrator does, on a database as it was before it (the columns on organizations). */
async function runMigration() {
  const text = await readFile(path.join(migrationsFolder, '0030_subscriptions.sql'), 'utf8');
  const client = await database.pool.connect();
  try {
    for (const statement of text.split('--> statement-breakpoint')) await client.query(statement);
  } finally {
    client.release();
  }
}

beforeAll(async () => {
  database = await createTestDb();
  await q(`DROP TABLE subscriptions`);
  await q(`ALTER TABLE organizations
    ADD COLUMN plan text DEFAULT 'starter' NOT NULL,
    ADD COLUMN stripe_customer_id text,
    ADD COLUMN stripe_subscription_id text,
    ADD COLUMN trial_ends_at timestamp with time zone,
    ADD COLUMN subscription_status text DEFAULT 'no_subscription' NOT NULL,
    ADD COLUMN current_period_end timestamp with time zone,
    ADD COLUMN cancel_at_period_end boolean DEFAULT false NOT NULL,
    ADD COLUMN pending_plan text,
    ADD COLUMN billing_interval text DEFAULT 'month' NOT NULL,
    ADD COLUMN payment_method text,
    ADD COLUMN trial_used_at timestamp with time zone,
    ADD CONSTRAINT organizations_subscription_status_check CHECK (subscription_status in
      ('no_subscription', 'trialing', 'active', 'past_due', 'canceled'))`);
  await q(`INSERT INTO organizations (name, slug, plan, stripe_customer_id, stripe_subscription_id,
      subscription_status, current_period_end, cancel_at_period_end, pending_plan, billing_interval,
      payment_method, trial_used_at)
    VALUES ('Paid', 'paid', 'professional', 'cus_1', 'sub_1', 'active', '2027-01-31T00:00:00Z', true,
      'starter', 'year', 'saved', '2026-01-01T00:00:00Z')`);
  await q(`INSERT INTO organizations (name, slug, plan, subscription_status, trial_ends_at, trial_used_at)
    VALUES ('Trial', 'trial', 'starter', 'trialing', '2026-12-15T00:00:00Z', '2026-12-01T00:00:00Z')`);
  await q(`INSERT INTO organizations (name, slug) VALUES ('Before plans', 'before-plans')`);
  await runMigration();
});
afterAll(async () => {
  await database?.close();
});

it('gives every organization its subscription row with the values it had, and drops the columns', async () => {
  const rows = await q(`SELECT o.slug, s.plan, s.stripe_customer_id, s.stripe_subscription_id,
      s.subscription_status, s.trial_ends_at, s.current_period_end, s.cancel_at_period_end, s.pending_plan,
      s.billing_interval, s.payment_method, s.trial_used_at
    FROM organizations o LEFT JOIN subscriptions s ON s.organization_id = o.id`);
  const bySlug = Object.fromEntries(rows.map(({ slug, ...subscription }) => [slug, subscription]));
  expect(bySlug.paid).toEqual({
    plan: 'professional',
    stripe_customer_id: 'cus_1',
    stripe_subscription_id: 'sub_1',
    subscription_status: 'active',
    trial_ends_at: null,
    current_period_end: new Date('2027-01-31T00:00:00Z'),
    cancel_at_period_end: true,
    pending_plan: 'starter',
    billing_interval: 'year',
    payment_method: 'saved',
    trial_used_at: new Date('2026-01-01T00:00:00Z'),
  });
  expect(bySlug.trial).toMatchObject({
    plan: 'starter',
    subscription_status: 'trialing',
    trial_ends_at: new Date('2026-12-15T00:00:00Z'),
    trial_used_at: new Date('2026-12-01T00:00:00Z'),
  });
  expect(bySlug['before-plans']).toMatchObject({
    plan: 'starter',
    subscription_status: 'no_subscription',
    trial_used_at: null,
    billing_interval: 'month',
  });
  const columns = await q(`SELECT column_name FROM information_schema.columns
    WHERE table_name = 'organizations' ORDER BY column_name`);
  expect(columns.map((c) => c.column_name)).toEqual([
    'created_at',
    'id',
    'name',
    'settings',
    'slug',
    'updated_at',
  ]);
});

it('removes the subscription with its organization', async () => {
  await q(`DELETE FROM organizations WHERE slug = 'paid'`);
  expect(await q(`SELECT 1 FROM subscriptions WHERE stripe_customer_id = 'cus_1'`)).toEqual([]);
});
