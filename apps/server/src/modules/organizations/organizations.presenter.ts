import { sql } from 'drizzle-orm';
import type { Db } from '@crewline/db';
import {
  executionTriggerSchema,
  executionTriggerText,
  type ActivityItem,
  type OrganizationStats,
} from '@crewline/contracts';
import { meanSeconds, successRate, workingUs } from './analytics.presenter';

/** A run no person started is named after its trigger (and what started it: `MCP · Claude`). */
function triggerName(trigger: string | null, triggerDetail: string | null): string | null {
  const parsed = executionTriggerSchema.safeParse(trigger);
  return parsed.success && parsed.data !== 'manual'
    ? executionTriggerText({ trigger: parsed.data, triggerDetail })
    : null;
}

/**
 * The dashboard's read model: a presenter, reading workflows, agents, runs and users (each written by
 * its own module, docs/architecture.md, Modules) in one statement per answer, and writing nothing.
 */
export function createOrganizationsPresenter(db: Db) {
  return {
    /** All dashboard figures in one round trip, computed by Postgres. */
    async stats(organizationId: string): Promise<OrganizationStats> {
      const result = await db.execute<{
        total_agents: number;
        active_agents: number;
        total_workflows: number;
        active_workflows: number;
        total_executions: number;
        recent_executions: number;
        completed: number;
        failed: number;
        avg_seconds: number | null;
      }>(sql`
        with a as (
          select count(*)::int as total, (count(*) filter (where status = 'active'))::int as active
          from agents where organization_id = ${organizationId}
        ), w as (
          select count(*)::int as total, (count(*) filter (where status = 'active'))::int as active
          from workflows where organization_id = ${organizationId}
        ), e as (
          select count(*)::int as total,
            (count(*) filter (where created_at > now() - interval '24 hours'))::int as recent,
            (count(*) filter (where status = 'completed'))::int as completed,
            (count(*) filter (where status = 'failed'))::int as failed,
            ${meanSeconds(sql`sum(${workingUs})`, sql`count(duration_us)`)} as avg_seconds
          from workflow_executions where organization_id = ${organizationId}
        )
        select a.total as total_agents, a.active as active_agents, w.total as total_workflows,
          w.active as active_workflows, e.total as total_executions, e.recent as recent_executions,
          e.completed, e.failed, e.avg_seconds
        from a, w, e`);
      const r = result.rows[0];
      return {
        totalAgents: r.total_agents,
        activeAgents: r.active_agents,
        totalWorkflows: r.total_workflows,
        activeWorkflows: r.active_workflows,
        totalExecutions: r.total_executions,
        recentExecutions: r.recent_executions,
        successRate: successRate(r.completed, r.failed),
        failedExecutions: r.failed,
        avgExecutionTime: r.avg_seconds === null ? 0 : Math.round(r.avg_seconds * 10) / 10,
      };
    },

    /**
     * The newest changes across agents, workflows and runs, each with who made it: the person who saved
     * the agent or workflow last, the person who started the run, or the trigger that started it.
     */
    async recentActivity(organizationId: string, limit: number): Promise<ActivityItem[]> {
      const result = await db.execute<{
        id: string;
        kind: ActivityItem['kind'];
        title: string;
        detail: string;
        status: string | null;
        actor: string | null;
        trigger: string | null;
        trigger_detail: string | null;
        at: Date;
      }>(sql`
        with recent as (
          (select id::text, case when updated_at > created_at + interval '1 second' then 'agent_updated' else 'agent_created' end as kind,
             name as title, role as detail, status::text as status, coalesce(updated_by, created_by) as actor_id,
             null::text as trigger, null::text as trigger_detail, updated_at as at
           from agents where organization_id = ${organizationId} order by updated_at desc limit ${limit})
          union all
          (select id::text, case when updated_at > created_at + interval '1 second' then 'workflow_updated' else 'workflow_created' end,
             name, process_type::text, status::text, coalesce(updated_by, created_by), null, null, updated_at
           from workflows where organization_id = ${organizationId} order by updated_at desc limit ${limit})
          union all
          (select e.id::text, 'execution', coalesce(w.name, 'Unknown Workflow'), coalesce(e.error, ''), e.status::text,
             e.triggered_by, e.trigger, e.trigger_detail, coalesce(e.completed_at, e.started_at, e.created_at)
           from workflow_executions e left join workflows w on w.id = e.workflow_id
           where e.organization_id = ${organizationId}
           order by coalesce(e.completed_at, e.started_at, e.created_at) desc limit ${limit})
          order by at desc limit ${limit}
        )
        select recent.id, recent.kind, recent.title, recent.detail, recent.status, recent.trigger,
          recent.trigger_detail, recent.at,
          coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.username) as actor
        from recent left join users u on u.id = recent.actor_id
        order by recent.at desc`);
      return result.rows.map(({ trigger, trigger_detail, actor, ...r }) => ({
        ...r,
        // A run no person started names its trigger.
        actor: actor ?? triggerName(trigger, trigger_detail),
        at: new Date(r.at).toISOString(),
      }));
    },
  };
}
export type OrganizationsPresenter = ReturnType<typeof createOrganizationsPresenter>;
