import { and, desc, eq, gt, inArray, isNotNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import {
  builtForColumns,
  nestedExtra,
  workflowVersions,
  workflows,
  type Db,
  type ExtraColumns,
} from '@crewline/db';
import {
  WEBHOOK_SECRET_MASK,
  workflowMessages,
  type TriggerConfig,
  type Workflow,
  type WorkflowDefinition,
  type WorkflowVersion,
  type WorkflowVersionSummary,
} from '@crewline/contracts';
import { nothingToSet } from '../../platform/patch';
import type { RequestActor } from '../../platform/request-actor';
import type { AuditRecorder } from '../audit/audit.service';
import { userDisplayName } from '../auth/users.columns';
import { toolIdsOf } from '../tools/tools.columns';
import { nodeAgentRefs, versionAt } from './workflows.columns';
import type { WebhookSecretChange } from './webhook-secret';

type WorkflowRow = typeof workflows.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/**
 * Who saved, and the note they typed, for the version a save of an active workflow records;
 * `record: false` saves the working copy only (an activation gate holds the version back).
 */
export type VersionAuthor = { userId: string | null; note?: string | null; record?: boolean };
/** Who saves, from where, and the status the workflow had: an activation or deactivation is audited. */
export type StatusChange = {
  actor: RequestActor;
  previousStatus: string;
  /** What the save does to the webhook secret (audited when the save writes it). */
  webhookSecret?: WebhookSecretChange | null;
};
type WorkflowWrite = Partial<
  Omit<typeof workflows.$inferInsert, 'id' | 'organizationId' | 'createdBy' | 'createdAt'>
>;

/**
 * The trigger configuration as answers and versions show it: a webhook secret is never in it (it lives
 * sealed in its own column), only the mask saying one is set. A secret typed before it moved out of
 * trigger_config counts as set until the next save moves it.
 */
function shownTriggerConfig(config: Record<string, unknown>, hasSecret: boolean): TriggerConfig {
  const { secret, ...rest } = config as TriggerConfig;
  return hasSecret || secret ? { ...rest, secret: WEBHOOK_SECRET_MASK } : rest;
}

function toWorkflowDto(row: WorkflowRow): Workflow {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    processType: row.processType,
    triggerType: row.triggerType,
    triggerConfig: shownTriggerConfig(row.triggerConfig, row.webhookSecret !== null),
    nodes: row.nodes ?? [],
    edges: row.edges ?? [],
    config: row.config ?? {},
    status: row.status,
    templateCategory: row.templateCategory,
    templateTags: row.templateTags ?? [],
    organizationId: row.organizationId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    lastTriggerError:
      row.lastTriggerError === null
        ? null
        : { message: row.lastTriggerError, at: (row.lastTriggerErrorAt ?? row.updatedAt).toISOString() },
  };
}

const versionSummaryColumns = {
  version: workflowVersions.version,
  createdAt: workflowVersions.createdAt,
  note: workflowVersions.note,
  // created_by is set null when its user is deleted, so a kept id always names a user.
  authorId: workflowVersions.createdBy,
  authorName: userDisplayName(sql.raw('"workflow_versions"."created_by"')),
};
type VersionSummaryRow = {
  version: number;
  createdAt: Date;
  note: string | null;
  authorId: string | null;
  authorName: string | null;
};
const toSummary = (row: VersionSummaryRow): WorkflowVersionSummary => ({
  version: row.version,
  createdAt: row.createdAt.toISOString(),
  createdBy: row.authorId ? { id: row.authorId, name: row.authorName ?? '' } : null,
  note: row.note,
});

/** The definition fields of a workflow row or a version row (the columns both tables share). */
function definitionOf(row: typeof workflowVersions.$inferSelect | WorkflowRow): WorkflowDefinition {
  return {
    name: row.name,
    description: row.description,
    processType: row.processType,
    triggerType: row.triggerType,
    triggerConfig: shownTriggerConfig(row.triggerConfig, false),
    nodes: row.nodes ?? [],
    edges: row.edges ?? [],
    config: row.config ?? {},
  };
}

/**
 * Records the workflow's definition as its next version (docs/architecture.md, Runs). Called inside the
 * transaction that wrote the workflow row, whose row lock orders concurrent saves of one workflow.
 */
async function recordVersion(tx: Tx, row: WorkflowRow, author: VersionAuthor): Promise<void> {
  await tx.insert(workflowVersions).values({
    workflowId: row.id,
    organizationId: row.organizationId,
    // Versions below zero are snapshots of the working copy an evaluation ran (`snapshot`), not releases.
    version: sql`(select coalesce(max(${workflowVersions.version}), 0) + 1 from ${workflowVersions}
      where ${workflowVersions.workflowId} = ${row.id} and ${workflowVersions.version} > 0)`,
    ...definitionOf(row),
    note: author.note ?? null,
    createdBy: author.userId,
  });
}

/**
 * The ids (text) of the agents of the organization `organization` names, as a subquery to alias, column
 * `id`: the agents module's SQL (agents.columns.ts), which app.ts hands over, since workflows may not
 * import agents (an agent's delete dialog reads workflows).
 */
export type AgentIdsOf = (organization: SQL) => SQL;

/** The organization of the workflow row `workflows`. */
const workflowOrganization = sql.raw('"workflows"."organization_id"');

/**
 * The agent steps of the workflow row `workflows` whose agent is not in its organization (deleted
 * since: a save refuses any other), named as the engine's stepName names them (label, else the
 * agent's name), in canvas order. Read with the list, so "needs attention" is never a stored flag.
 */
const deletedAgentSteps = (agentIdsOf: AgentIdsOf) => sql<string[]>`coalesce((select array_agg(coalesce(
      nullif(trim(n->'data'->>'label'), ''), nullif(trim(n->'data'->>'name'), ''), 'Untitled') order by i)
    from jsonb_array_elements("workflows"."nodes") with ordinality e(n, i)
    cross join lateral (select coalesce(nullif(n->>'agentId', ''), nullif(n->'data'->>'agentId', '')) as ref) r
    where n->>'type' = 'agent' and r.ref is not null
      and not exists (select 1 from ${agentIdsOf(workflowOrganization)} a where a.id = r.ref)), '{}')`;

/** What a workflow answer says about steps on deleted agents (docs/architecture.md, Workflows). */
export const withProblems = (workflow: Workflow, deletedSteps: string[]): Workflow => ({
  ...workflow,
  needsAttention: deletedSteps.length > 0,
  problems: deletedSteps.map(workflowMessages.deletedAgent),
});

/** No extra columns: one object, so the statement without them is built once. */
const NO_EXTRA: ExtraColumns = {};

// Every query is scoped by organization: another organization's workflow does not exist here.
export function createWorkflowsRepository(db: Db, agentIdsOf: AgentIdsOf, audit: AuditRecorder) {
  /** A webhook secret's change in the audit log: which change, never the secret. */
  const recordSecret = (
    tx: Tx,
    row: { id: string; name: string; organizationId: string },
    actor: RequestActor,
    change: WebhookSecretChange | 'rotated',
  ) =>
    audit.record(tx, {
      organizationId: row.organizationId,
      actor,
      action: `webhook_secret.${change}`,
      target: { type: 'workflow', id: row.id, name: row.name },
    });
  /** One workflow of the organization; placeholders in a statement built once. */
  const scoped = (organizationId: string | Placeholder, id: string | Placeholder) =>
    and(eq(workflows.organizationId, organizationId), eq(workflows.id, id));
  /**
   * getWithAgentIds's read for one set of extra columns, built once for each (a run's start makes it:
   * building it anew cost more than its round trip). Unnamed: the pool's client names a statement by
   * its text once it repeats (@crewline/db's prepared statements), so a caller passing new extra
   * columns on each call costs rebuilding, never a new statement per call.
   */
  const withAgentIdsStatement = builtForColumns((extra) =>
    db
      .select({
        ...nestedExtra(extra),
        workflow: workflows,
        // Drizzle leaves columns in a select list unqualified, so the subquery names its tables itself.
        agentIds: sql<string[]>`coalesce((select array_agg(a.id) from ${agentIdsOf(workflowOrganization)} a
          where a.id in (select ref from ${nodeAgentRefs(sql`"workflows"."nodes"`)})), '{}')`,
        // Those of the tools its Tool steps name that exist: a run's start checks them without a read of its own.
        toolIds: sql<string[]>`coalesce((select array_agg(t.id) from ${toolIdsOf(workflowOrganization)} t
          where t.id in (select n->'data'->>'toolId' from jsonb_array_elements("workflows"."nodes") n
            where n->>'type' = 'tool')), '{}')`,
      })
      .from(workflows)
      .where(scoped(sql.placeholder('organizationId'), sql.placeholder('id')))
      .limit(1)
      .prepare(''),
  );
  /** versionAt's read for one set of extra columns, built once for each (as withAgentIdsStatement). */
  const versionAtStatement = builtForColumns((extra) =>
    db
      .select({
        name: workflows.name,
        status: workflows.status,
        version: versionAt('workflows'),
        ...nestedExtra(extra),
      })
      .from(workflows)
      .where(scoped(sql.placeholder('organizationId'), sql.placeholder('id')))
      .limit(1)
      .prepare(''),
  );
  const stepsOnDeletedAgents = deletedAgentSteps(agentIdsOf);
  async function get(organizationId: string, id: string): Promise<Workflow | undefined> {
    const [row] = await db.select().from(workflows).where(scoped(organizationId, id)).limit(1);
    return row && toWorkflowDto(row);
  }
  // Like `scoped`: another organization's workflow has no versions.
  const versionsOf = (organizationId: string, workflowId: string) =>
    and(eq(workflowVersions.organizationId, organizationId), eq(workflowVersions.workflowId, workflowId));
  return {
    /** Each with whether it needs attention (a step on a deleted agent), read in the same statement. */
    async list(organizationId: string): Promise<Workflow[]> {
      const rows = await db
        .select({ workflow: workflows, deletedSteps: stepsOnDeletedAgents })
        .from(workflows)
        .where(eq(workflows.organizationId, organizationId))
        .orderBy(desc(workflows.updatedAt));
      return rows.map((row) => withProblems(toWorkflowDto(row.workflow), row.deletedSteps));
    },
    get,
    /**
     * The workflow with those of the agents and tools its nodes name that exist in the organization, and
     * `extra` columns, in one statement (the run rule checks them on every run; the organization's other
     * agents are not read). `parameters` fills the placeholders of the extra columns.
     */
    async getWithAgentIds<Extra extends ExtraColumns>(
      organizationId: string,
      id: string,
      extra = NO_EXTRA as Extra,
      parameters: Record<string, unknown> = {},
    ): Promise<
      | {
          workflow: Workflow;
          agentIds: Set<string>;
          toolIds: Set<string>;
          extra: { [K in keyof Extra]: unknown };
        }
      | undefined
    > {
      const statement = withAgentIdsStatement(extra);
      const [row] = await statement.execute({ ...parameters, organizationId, id });
      return (
        row && {
          workflow: toWorkflowDto(row.workflow),
          agentIds: new Set(row.agentIds),
          toolIds: new Set(row.toolIds),
          extra: (row.extra ?? {}) as { [K in keyof Extra]: unknown },
        }
      );
    },
    /**
     * A workflow created active records its version 1 in the same transaction (a savepoint of
     * `within`, a caller's transaction, when given).
     */
    async create(
      organizationId: string,
      createdBy: string,
      values: WorkflowWrite & { name: string },
      versionNote?: string | null,
      within: Pick<Db, 'transaction'> = db,
      /** Who creates it and what that does to the webhook secret, for the audit log. */
      audited?: { actor: RequestActor; webhookSecret: WebhookSecretChange | null },
    ): Promise<Workflow> {
      return within.transaction(async (tx) => {
        const [row] = await tx
          .insert(workflows)
          .values({
            ...values,
            organizationId,
            createdBy,
            updatedBy: createdBy,
          } as typeof workflows.$inferInsert)
          .returning();
        if (row.status === 'active') await recordVersion(tx, row, { userId: createdBy, note: versionNote });
        if (audited?.webhookSecret) await recordSecret(tx, row, audited.actor, audited.webhookSecret);
        return toWorkflowDto(row);
      });
    },
    /** Every save that leaves the workflow active (an Activate, or a save while active) records a version. */
    async update(
      organizationId: string,
      id: string,
      values: WorkflowWrite,
      author: VersionAuthor,
      change?: StatusChange,
    ): Promise<Workflow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = nothingToSet(values)
          ? await tx.select().from(workflows).where(scoped(organizationId, id)).for('update')
          : await tx
              .update(workflows)
              .set({ ...values, updatedBy: author.userId })
              .where(scoped(organizationId, id))
              .returning();
        if (!row) return undefined;
        if (row.status === 'active' && author.record !== false) await recordVersion(tx, row, author);
        const was = change?.previousStatus;
        if (change && row.status !== was && (row.status === 'active' || was === 'active')) {
          await audit.record(tx, {
            organizationId,
            actor: change.actor,
            action: row.status === 'active' ? 'workflow.activated' : 'workflow.deactivated',
            target: { type: 'workflow', id: row.id, name: row.name },
            details: { from: was, to: row.status },
          });
        }
        // Only the save that writes the secret (an activation behind a gate saves twice).
        if (change?.webhookSecret && values.webhookSecret !== undefined)
          await recordSecret(tx, row, change.actor, change.webhookSecret);
        return toWorkflowDto(row);
      });
    },
    /** The workflow's versions, newest first. */
    async versions(organizationId: string, workflowId: string): Promise<WorkflowVersionSummary[]> {
      const rows = await db
        .select(versionSummaryColumns)
        .from(workflowVersions)
        .where(and(versionsOf(organizationId, workflowId), gt(workflowVersions.version, 0)))
        .orderBy(desc(workflowVersions.version));
      return rows.map(toSummary);
    },
    /**
     * Records the working copy as a snapshot (the next version below zero): what an evaluation of
     * the draft runs, pinned like a release but never listed, run by triggers or counted as newest.
     */
    async snapshot(organizationId: string, id: string, userId: string | null): Promise<number | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(workflows).where(scoped(organizationId, id)).for('update');
        if (!row) return undefined;
        const [version] = await tx
          .insert(workflowVersions)
          .values({
            workflowId: row.id,
            organizationId: row.organizationId,
            version: sql`(select coalesce(min(${workflowVersions.version}), 0) - 1 from ${workflowVersions}
              where ${workflowVersions.workflowId} = ${row.id} and ${workflowVersions.version} < 0)`,
            ...definitionOf(row),
            note: 'Snapshot of the draft for an evaluation',
            createdBy: userId,
          })
          .returning({ version: workflowVersions.version });
        return version.version;
      });
    },
    async version(
      organizationId: string,
      workflowId: string,
      version: number,
    ): Promise<WorkflowVersion | undefined> {
      const [row] = await db
        .select({ ...versionSummaryColumns, v: workflowVersions })
        .from(workflowVersions)
        .where(and(versionsOf(organizationId, workflowId), eq(workflowVersions.version, version)))
        .limit(1);
      if (!row) return undefined;
      const { v } = row;
      return {
        ...toSummary(row),
        workflowId: v.workflowId,
        ...definitionOf(v),
      } satisfies WorkflowVersion;
    },
    /** What the row holds about its webhook secret: sealed, or (rows from before) plaintext in trigger_config. */
    async storedWebhookSecret(
      organizationId: string,
      id: string,
    ): Promise<{ sealed: string | null; legacy?: string } | undefined> {
      const [row] = await db
        .select({
          sealed: workflows.webhookSecret,
          legacy: sql<string | null>`${workflows.triggerConfig}->>'secret'`,
        })
        .from(workflows)
        .where(scoped(organizationId, id))
        .limit(1);
      return row && { sealed: row.sealed, legacy: row.legacy ?? undefined };
    },
    /**
     * The public webhook route's lookup: by id alone (the caller is not signed in), so it answers the
     * organization, which everything after it is scoped by.
     */
    async findForWebhook(id: string) {
      const [row] = await db
        .select({
          id: workflows.id,
          organizationId: workflows.organizationId,
          triggerType: workflows.triggerType,
          status: workflows.status,
          sealed: workflows.webhookSecret,
          legacy: sql<string | null>`${workflows.triggerConfig}->>'secret'`,
          // Calls must be signed (triggerConfig.signed, modules/triggers/webhook-signature.ts).
          signed: sql<boolean>`coalesce(${workflows.triggerConfig}->'signed' = 'true'::jsonb, false)`,
        })
        .from(workflows)
        .where(eq(workflows.id, id))
        .limit(1);
      return row && { ...row, legacy: row.legacy ?? undefined };
    },
    /**
     * Replaces the sealed webhook secret (a rotation); a plaintext one from before goes with it.
     * `audited`: the change's event, in the same transaction (none when a stored secret is only sealed).
     */
    async setWebhookSecret(
      organizationId: string,
      id: string,
      sealed: string,
      audited?: { actor: RequestActor; change: 'generated' | 'rotated' },
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(workflows)
          .set({
            webhookSecret: sealed,
            triggerConfig: sql`${workflows.triggerConfig} - 'secret'`,
            // Not an edit of the definition: the workflow keeps its place in the lists.
            updatedAt: sql`${workflows.updatedAt}`,
          })
          .where(scoped(organizationId, id))
          .returning({ id: workflows.id, name: workflows.name, organizationId: workflows.organizationId });
        if (!row) return false;
        if (audited) await recordSecret(tx, row, audited.actor, audited.change);
        return true;
      });
    },
    /** Keeps why a trigger could not start a run (null clears it; a no-op when there is nothing to clear). */
    async setTriggerError(organizationId: string, id: string, message: string | null): Promise<void> {
      await db
        .update(workflows)
        .set({
          lastTriggerError: message,
          lastTriggerErrorAt: message === null ? null : new Date(),
          // Not an edit: the workflow keeps its place in the lists.
          updatedAt: sql`${workflows.updatedAt}`,
        })
        .where(
          and(
            scoped(organizationId, id),
            message === null ? isNotNull(workflows.lastTriggerError) : undefined,
          ),
        );
    },
    async remove(organizationId: string, id: string): Promise<boolean> {
      return (
        (await db.delete(workflows).where(scoped(organizationId, id)).returning({ id: workflows.id }))
          .length > 0
      );
    },
    /**
     * The organization's agents by id with their output schemas (null: none), for the rules that
     * agent nodes reference existing agents and that expressions read fields their answers have.
     */
    async agentSchemas(
      organizationId: string,
      q: Pick<Db, 'select'> = db,
    ): Promise<Map<string, Record<string, unknown> | null>> {
      const rows = await q
        .select({ id: sql<string>`a.id`, outputSchema: sql<Record<string, unknown> | null>`a.output_schema` })
        .from(sql`${agentIdsOf(sql`${organizationId}::uuid`)} a`);
      return new Map(rows.map((r) => [r.id, r.outputSchema]));
    },
    /**
     * Those of `ids` (UUIDs) that are workflows of the organization, for the rule that maps and loops
     * run existing ones.
     */
    async workflowIds(
      organizationId: string,
      ids: string[],
      q: Pick<Db, 'select'> = db,
    ): Promise<Set<string>> {
      const rows = await q
        .select({ id: workflows.id })
        .from(workflows)
        .where(and(eq(workflows.organizationId, organizationId), inArray(workflows.id, ids)));
      return new Set(rows.map((r) => r.id));
    },
    /**
     * A workflow as a map or loop of a run created at `at` runs it: its name, its status and the
     * newest version recorded at or before `at` (null when none was), with `extra` columns over the
     * workflow row (which may read that version through `versionAt`), in one statement.
     */
    async versionAt<Extra extends ExtraColumns>(
      organizationId: string,
      id: string,
      at: Date,
      extra = NO_EXTRA as Extra,
    ): Promise<
      | {
          name: string;
          status: Workflow['status'];
          version: number | null;
          extra: { [K in keyof Extra]: unknown };
        }
      | undefined
    > {
      const statement = versionAtStatement(extra);
      const [row] = await statement.execute({ organizationId, id, at: at.toISOString() });
      return (
        row && {
          name: row.name,
          status: row.status,
          version: row.version === null ? null : Number(row.version),
          extra: (row.extra ?? {}) as { [K in keyof Extra]: unknown },
        }
      );
    },
    /** Ids of the organization's tools, for the rule that Tool steps name existing tools. */
    async toolIds(organizationId: string, q: Pick<Db, 'select'> = db): Promise<Set<string>> {
      const rows = await q
        .select({ id: sql<string>`t.id` })
        .from(sql`${toolIdsOf(sql`${organizationId}::uuid`)} t`);
      return new Set(rows.map((r) => r.id));
    },
  };
}
export type WorkflowsRepository = ReturnType<typeof createWorkflowsRepository>;
