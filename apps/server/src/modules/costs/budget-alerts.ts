import { usdText } from '@crewline/contracts';
import type { Logger } from 'pino';
import type { Settled } from './spend-counters.repository';

/** A budget alert as it is sent: by email to owners and admins, and as `{ text }` to the notification URL. */
export type BudgetAlert = { subject: string; text: string };

/** What a cap reaching 80 % or 100 % says, naming what to raise (docs/product-rules.md, Costs). */
function budgetAlert(settled: Settled, workflowName: string | undefined, settingsUrl: string): BudgetAlert {
  const [spent, cap] = [usdText(settled.spentMicros / 1e6), usdText(settled.capMicros / 1e6)];
  const full = settled.newAlert === 100;
  switch (settled.scope) {
    case 'organization':
      return {
        subject: full
          ? 'Crewline: your monthly budget is spent'
          : 'Crewline: 80 % of your monthly budget is spent',
        text: full
          ? `Your organization has spent ${spent} of its ${cap} monthly budget. New runs and model calls are refused until next month, or until an owner or admin raises the budget in Settings → Costs: ${settingsUrl}`
          : `Your organization has spent ${spent} of its ${cap} monthly budget. At 100 % new runs and model calls are refused. Settings → Costs: ${settingsUrl}`,
      };
    case 'workflow': {
      const name = workflowName ? `“${workflowName}”` : 'a deleted workflow';
      return {
        subject: full
          ? `Crewline: the monthly budget of ${name} is spent`
          : `Crewline: 80 % of the monthly budget of ${name} is spent`,
        text: full
          ? `The workflow ${name} has spent ${spent} of its ${cap} monthly budget. Its new runs are refused until next month, or until its monthly cap is raised in the workflow's settings.`
          : `The workflow ${name} has spent ${spent} of its ${cap} monthly budget. At 100 % its new runs are refused.`,
      };
    }
    case 'chat': {
      const name = workflowName ? `“${workflowName}”` : 'a deleted workflow';
      return {
        subject: full
          ? `Crewline: the monthly budget of the chat of ${name} is spent`
          : `Crewline: 80 % of the monthly budget of the chat of ${name} is spent`,
        text: full
          ? `The chat app of the workflow ${name} has spent ${spent} of its ${cap} monthly budget. It answers no new messages until next month, or until its monthly cap is raised in the chat's settings.`
          : `The chat app of the workflow ${name} has spent ${spent} of its ${cap} monthly budget. At 100 % it answers no new messages.`,
      };
    }
    case 'plan':
      return {
        subject: full
          ? "Crewline: your plan's included model use is spent"
          : "Crewline: 80 % of your plan's included model use is spent",
        text: full
          ? `Your organization has used ${spent} of the ${cap} of model use on Crewline's keys its plan includes this month. Model calls on Crewline's keys are refused until next month: add your own API key in Settings → Tools, or upgrade your plan.`
          : `Your organization has used ${spent} of the ${cap} of model use on Crewline's keys its plan includes this month. At 100 % those model calls are refused: add your own API key in Settings → Tools to go on past it.`,
      };
  }
}

/**
 * Sends the alerts caps reached for the first time (each once a month: the counters say which), in
 * the background of the call that reached them: a failure is logged, never the call's.
 */
export function createBudgetAlerts(deps: {
  send(organizationId: string, alert: BudgetAlert): Promise<void>;
  workflowName(organizationId: string, workflowId: string): Promise<string | undefined>;
  settingsUrl: string;
  logger?: Logger;
}) {
  return {
    async sendAll(organizationId: string, reached: Settled[]): Promise<void> {
      for (const settled of reached) {
        try {
          const name =
            settled.scope === 'workflow' || settled.scope === 'chat'
              ? await deps.workflowName(organizationId, settled.scopeId)
              : undefined;
          await deps.send(organizationId, budgetAlert(settled, name, deps.settingsUrl));
        } catch (error) {
          deps.logger?.error({ err: error, scope: settled.scope }, 'a budget alert could not be sent');
        }
      }
    },
  };
}
export type BudgetAlerts = ReturnType<typeof createBudgetAlerts>;
