import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '@crewline/db';
import type { OrganizationRole } from '@crewline/contracts';
import type { Logger } from 'pino';
import type { Config } from './platform/env';
import { registerErrorHandler } from './platform/errors';
import { registerInputGuard } from './platform/input-guard';
import { loggerOptions, OneLinePerRequest } from './platform/logger';
import { registerSecurityHeaders } from './platform/security-headers';
import { registerSpa } from './platform/spa';
import { lazySchemaController } from './platform/schema-compilers';
import { openApiRoutes, registerOpenApi } from './platform/openapi';
import { registerApiReference } from './platform/api-reference';
import { createRequestMetrics, registerRequestMetrics } from './platform/request-metrics';
import { registerHttpTracing } from './platform/telemetry/tracing';
import { metricsRoutes, processMetrics } from './platform/metrics';
import { withModelCallMetrics } from './platform/metrics/metrics';
import { createQueueDepth } from './modules/executions/queue-depth.repository';
import { createEventBus, type EventBus } from './platform/events';
import { createSecretBox } from './platform/crypto';
import {
  createEgress,
  createReservedDestinations,
  egressFetch,
  type ReservedDestinations,
} from './platform/egress';
import { createLlmGateway, createModelCatalogue, type LlmGateway } from './platform/llm';
import { createTokenService } from './platform/auth/tokens';
import { createAuthRepository } from './modules/auth/auth.repository';
import { createRateLimitRepository } from './platform/rate-limit.repository';
import { createAuthService } from './modules/auth/auth.service';
import { registerAuthGuard } from './modules/auth/auth.guard';
import { registerRoleGuard } from './modules/auth/role.guard';
import { authRoutes } from './modules/auth/auth.routes';
import { createAccountLinksService } from './modules/auth/account-links.service';
import { accountLinksRoutes } from './modules/auth/account-links.routes';
import { createAccountTokensRepository } from './modules/auth/account-tokens.repository';
import { createMailer } from './platform/mail';
import { createProfileRepository } from './modules/auth/profile.repository';
import { createProfileService } from './modules/auth/profile.service';
import { profileRoutes } from './modules/auth/profile.routes';
import { createAnalyticsPresenter } from './modules/organizations/analytics.presenter';
import { createOrganizationsPresenter } from './modules/organizations/organizations.presenter';
import { createOrganizationsService } from './modules/organizations/organizations.service';
import { organizationsRoutes } from './modules/organizations/organizations.routes';
import { createTeamRepository } from './modules/organizations/team.repository';
import { createOrganizationSettingsRepository } from './modules/organizations/organization-settings.repository';
import { createOrganizationSettingsService } from './modules/organizations/organization-settings.service';
import { organizationSettingsRoutes } from './modules/organizations/organization-settings.routes';
import { createPricesRepository } from './modules/costs/prices.repository';
import { createPricesService } from './modules/costs/prices.service';
import { pricesRoutes } from './modules/costs/prices.routes';
import { createBudgetsRepository } from './modules/costs/budgets.repository';
import { createSpendLedgerRepository } from './modules/costs/spend-ledger.repository';
import { createSpendService } from './modules/costs/spend.service';
import { createBudgetScopes } from './modules/costs/budget-scopes';
import { createMeteredGateway } from './modules/costs/metered-gateway';
import { createRunBudgets } from './modules/costs/run-budgets.service';
import { createSpendReportPresenter } from './modules/costs/spend-report.presenter';
import { createSpendCountersRepository } from './modules/costs/spend-counters.repository';
import { createBudgetAlerts } from './modules/costs/budget-alerts';
import { postApprovalNotice } from './modules/executions/approval-webhook';
import { spendRoutes } from './modules/costs/spend.routes';
import { createMembersPresenter } from './modules/organizations/members.presenter';
import { createTeamService } from './modules/organizations/team.service';
import { teamRoutes } from './modules/organizations/team.routes';
import { createAgentsRepository } from './modules/agents/agents.repository';
import { agentIdsOf } from './modules/agents/agents.columns';
import { createAgentsService } from './modules/agents/agents.service';
import { createAgentModel } from './modules/agents/agent-model';
import { agentsRoutes } from './modules/agents/agents.routes';
import { agentKnowledgeRoutes } from './modules/agents/agent-knowledge.routes';
import { createAgentKnowledgeService } from './modules/agents/agent-knowledge.service';
import { createWorkflowsRepository } from './modules/workflows/workflows.repository';
import { createWorkflowsService } from './modules/workflows/workflows.service';
import { createEvaluationsModule } from './modules/evaluations/evaluations.module';
import type { ActivationGateService } from './modules/evaluations/activation-gate';
import { evaluationsRoutes } from './modules/evaluations/evaluations.routes';
import { workflowsRoutes } from './modules/workflows/workflows.routes';
import { createExecutionsRepository } from './modules/executions/executions.repository';
import { createExecutionsService } from './modules/executions/executions.service';
import { createExecutionRunner } from './modules/executions/execution-runner';
import { createLocalClaims } from './modules/executions/local-claims';
import { createOutputDelivery } from './modules/executions/output-delivery';
import { executionsRoutes } from './modules/executions/executions.routes';
import { createNodeTests } from './modules/executions/node-test.service';
import { createCodeSandbox } from './platform/sandbox/code-sandbox';
import { createGuardrailsService } from './modules/guardrails/guardrails.service';
import { createNodeTestReads } from './modules/executions/node-test.repository';
import { nodeTestRoutes } from './modules/executions/node-test.routes';
import { createApprovalsRepository } from './modules/executions/approvals.repository';
import { createApprovalsService } from './modules/executions/approvals.service';
import { approvalsRoutes } from './modules/executions/approvals.routes';
import { createApprovalLinksRepository } from './modules/executions/approval-links.repository';
import { createApprovalLinksService } from './modules/executions/approval-links.service';
import { approvalLinksRoutes } from './modules/executions/approval-links.routes';
import { createTriggersService } from './modules/triggers/triggers.service';
import { createWebhookSecrets } from './modules/workflows/webhook-secret';
import { createWebhookService } from './modules/triggers/webhook.service';
import { createWebhookSecretsService } from './modules/workflows/webhook-secrets.service';
import { webhookRoutes } from './modules/triggers/webhook.routes';
import { createWebhookSignaturesRepository } from './modules/triggers/webhook-signatures.repository';
import { createSchedulesRepository } from './modules/workflows/schedules.repository';
import { createEmailMonitorRepository } from './modules/triggers/email-monitor.repository';
import { createToolsRepository } from './modules/tools/tools.repository';
import { createToolsService } from './modules/tools/tools.service';
import { createToolUsagePresenter } from './modules/tools/tool-usage.presenter';
import { createToolRuntime } from './modules/tools/runtime/tool-runtime';
import { toolsRoutes } from './modules/tools/tools.routes';
import { createMcpOauthRepository } from './modules/tools/mcp-oauth.repository';
import { mcpOauthRoutes } from './modules/tools/mcp-oauth.routes';
import { createMcpOauth } from './modules/tools/mcp-oauth.service';
import { createToolTester } from './modules/tools/tool-test';
import { createConnectionsRepository } from './modules/connections/connections.repository';
import { createConnectionsService } from './modules/connections/connections.service';
import { connectionsRoutes } from './modules/connections/connections.routes';
import { createProviderModels } from './modules/connections/provider-models';
import { createMicrosoftRepository } from './modules/microsoft/microsoft.repository';
import { createMicrosoftEgress, createMicrosoftService } from './modules/microsoft/microsoft.service';
import { microsoftRoutes } from './modules/microsoft/microsoft.routes';
import { createSystemRepository } from './modules/system/system.repository';
import { createSystemService } from './modules/system/system.service';
import { systemRoutes } from './modules/system/system.routes';
import { createRealtimeRepository } from './modules/realtime/realtime.repository';
import { createRealtimeService } from './modules/realtime/realtime.service';
import { registerRealtime } from './modules/realtime/realtime.routes';
import { createWatchedWorkflows } from './modules/realtime/watched-workflows';
import { createBillingRepository } from './modules/billing/billing.repository';
import { createBillingService } from './modules/billing/billing.service';
import { createPlanUsagePresenter } from './modules/billing/plan-usage.presenter';
import { createStripeCustomerPresenter } from './modules/billing/stripe-customer.presenter';
import { createNoPaymentProvider } from './modules/billing/payment-provider';
import { billingRoutes, stripeWebhookRoutes } from './modules/billing/billing.routes';
import { createApiKeysRepository } from './modules/api-keys/api-keys.repository';
import { isMemberSql } from './modules/auth/memberships.columns';
import { createOAuthRepository } from './modules/oauth/oauth.repository';
import { oauthRoutes } from './modules/oauth/oauth.routes';
import { createOAuthService } from './modules/oauth/oauth.service';
import { userDisplayName } from './modules/auth/users.columns';
import { createApiKeysService } from './modules/api-keys/api-keys.service';
import { createAuditRepository } from './modules/audit/audit.repository';
import { createAuditService } from './modules/audit/audit.service';
import { auditRoutes } from './modules/audit/audit.routes';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes';
import { createTemplatesRepository } from './modules/templates/templates.repository';
import { createTemplatesService } from './modules/templates/templates.service';
import { templatesRoutes } from './modules/templates/templates.routes';
import { createSalesRepository } from './modules/sales/sales.repository';
import { createSalesService } from './modules/sales/sales.service';
import { salesRoutes } from './modules/sales/sales.routes';
import { createKnowledgeRepository } from './modules/knowledge/knowledge.repository';
import { createKnowledgeUsagePresenter } from './modules/knowledge/knowledge-usage.presenter';
import { createKnowledgeService } from './modules/knowledge/knowledge.service';
import { knowledgeRoutes } from './modules/knowledge/knowledge.routes';
import { createIngestionRepository } from './modules/knowledge/ingestion.repository';
import { createIngestion } from './modules/knowledge/ingest-document';
import { createVectorIndex } from './modules/knowledge/vector-index';
import { createAnnIndex } from './modules/knowledge/ann-index';
import type { StorageLimit } from './modules/knowledge/knowledge-storage';
import { createMemoryRepository } from './modules/memory/memory.repository';
import { createMemoryService } from './modules/memory/memory.service';
import { createPublishingRepository } from './modules/mcp/publishing.repository';
import { createPublishedToolsPresenter } from './modules/mcp/published-tools.presenter';
import { createPublishingService } from './modules/mcp/publishing.service';
import { chatCapMicrosSql } from './modules/mcp/publishing.columns';
import { publishingRoutes } from './modules/mcp/publishing.routes';
import { mcpRoutes } from './modules/mcp/mcp.routes';
import { createChatTurns } from './modules/chat/chat-turn';
import { openAiCompatRoutes } from './modules/chat/openai-compat.routes';
import { createChatAppsPresenter } from './modules/chat/chat-apps.presenter';
import { registerChatPageHeaders } from './modules/chat/chat-page.headers';
import { createChatService } from './modules/chat/chat.service';
import { createChatThreadsRepository } from './modules/chat/chat-threads.repository';
import { createChatThreadPresenter } from './modules/chat/chat-thread.presenter';
import { createChatCookies } from './modules/chat/chat-cookies';
import { chatRoutes } from './modules/chat/chat.routes';
import { chatThreadsRoutes } from './modules/chat/chat-threads.routes';
import { memoryRoutes } from './modules/memory/memory.routes';
import {
  createStripeClient,
  createStripeEgress,
  createStripeProvider,
} from './modules/billing/stripe-provider';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export type AppDeps = {
  config: Config;
  db: Db;
  /** Overrides the pino options (tests pass false or their own stream). */
  logger?: FastifyServerOptions['logger'];
  /** An existing pino logger to share (the process entry point passes its own). */
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** The process's event bus (tests pass their own to observe what is published). */
  events?: EventBus;
  /** The LLM gateway (tests pass one with short timeouts). */
  llm?: LlmGateway;
  /**
   * The process's own ports and database, refused to every tool, model connection and webhook whatever
   * the allow-list says (main.ts adds the database and the listening port). Defaults to config.port only.
   */
  reserved?: ReservedDestinations;
  /** The billing clock: trials, periods and the month executions count in (tests move it). */
  clock?: () => Date;
};

/** Wires services into routes. Tests build the real app with this and call it through inject(). */
export function createServices(deps: AppDeps) {
  const { config, db } = deps;
  const metrics = createRequestMetrics();
  const events = deps.events ?? createEventBus();
  const watchedWorkflows = createWatchedWorkflows(events);
  const box = createSecretBox(config.encryptionKey);
  /** The audit log (modules/audit): the modules below record their changes in it, in their own transactions. */
  const audit = createAuditService({
    repository: createAuditRepository(db, { displayName: userDisplayName }),
    retentionDays: config.auditRetentionDays,
  });
  // Model calls get a longer limit than tool calls; both pass the same SSRF checks and reservations,
  // and each use (model, tool, webhook) applies only the allow-list entries for it.
  const reserved = deps.reserved ?? createReservedDestinations({ localPorts: [config.port] });
  const egress = createEgress({ allowList: config.egressAllowList, reserved });
  const toolEgress = egress.for('tool');
  /** Model prices (modules/costs): metering prices its calls with `priceTable` (one query, then a synchronous lookup). */
  const prices = createPricesService({ repository: createPricesRepository(db), clock: deps.clock });
  /**
   * Model spend (modules/costs): the ledger, the caps and their counters. Every module calls models
   * through the metered gateway (calls that carry a meter answer to the caps and go to the ledger);
   * runs meter their own steps and answer to their budgets through `runBudgets`.
   */
  const spendLedger = createSpendLedgerRepository(db);
  const budgetsRepository = createBudgetsRepository(db);
  const spendCounters = createSpendCountersRepository(db);
  const budgetScopes = createBudgetScopes({
    planOf: async (organizationId) => (await billing.current(organizationId)).plan,
    serverKeys: !!(config.providerKeys.openai?.trim() || config.providerKeys.anthropic?.trim()),
    includedUsd: config.includedModelSpendUsd,
    // Built below, with the mailer and the organization's settings.
    alerts: () => budgetAlerts,
    clock: deps.clock,
  });
  const spend = createSpendService({
    ledger: spendLedger,
    report: createSpendReportPresenter(db),
    budgets: budgetsRepository,
    counters: spendCounters,
    scopes: budgetScopes,
    clock: deps.clock,
  });
  const runBudgets = createRunBudgets({ counters: spendCounters, scopes: budgetScopes });
  const llm = createMeteredGateway({
    ledger: spendLedger,
    budgets: budgetsRepository,
    counters: spendCounters,
    prices,
    scopes: budgetScopes,
    logger: deps.loggerInstance as Logger | undefined,
  })(
    // Every model call timed for the metrics (platform/metrics), whichever module makes it.
    withModelCallMetrics(
      deps.llm ??
        createLlmGateway({
          fetch: egressFetch(
            createEgress({ allowList: config.egressAllowList, reserved, timeoutMs: 180_000 }).for('model'),
          ),
        }),
    ),
  );
  const connections = createConnectionsService({
    config,
    repository: createConnectionsRepository(db, audit),
    box,
  });
  /** Whether the organization has the agent (modules/agents, built below; memory and tools may not import it). */
  const agentExists = (organizationId: string, agentId: string) =>
    services.agents.exists(organizationId, agentId);
  // OAuth MCP connections: an admin's sign-in, then stored tokens the SDK refreshes (through the egress for tools).
  const mcpOauth = createMcpOauth({
    repository: createMcpOauthRepository(db, audit),
    box,
    egress: toolEgress,
    publicUrl: config.publicUrl,
  });
  const tools = createToolsService({
    repository: createToolsRepository(db, audit),
    box,
    presenter: createToolUsagePresenter(db),
    agentExists,
    // MCP server connections: listed through the egress for tools; plain http only to allow-listed hosts.
    mcp: { egress: toolEgress, allowList: config.egressAllowList, oauth: mcpOauth },
  });
  const agentsRepository = createAgentsRepository(db);
  // A workflow's reads check the agents its steps name with the agents module's SQL.
  const workflowsRepository = createWorkflowsRepository(db, agentIdsOf, audit);
  const executionsRepository = createExecutionsRepository(db);
  const approvalsRepository = createApprovalsRepository(db);
  /** Embeds with the knowledge base's provider: the organization's connection, as agents use theirs. */
  const embeddingConnection = (organizationId: string, provider: 'openai' | 'local' | 'custom') =>
    connections.connectionFor(organizationId, provider);
  /** The organization's knowledge storage quota: its plan's (billing, built below, is read at call time). */
  const knowledgeStorageLimit = async (organizationId: string): Promise<StorageLimit> => {
    const { plan, limits } = await billing.current(organizationId);
    return { maxBytes: limits.knowledgeStorageBytes, plan: plan ?? 'free' };
  };
  const knowledge = createKnowledgeService({
    repository: createKnowledgeRepository(db),
    presenter: createKnowledgeUsagePresenter(db),
    events,
    llm,
    connectionFor: embeddingConnection,
    index: createVectorIndex({ maxBytes: config.knowledgeSearchMemoryBytes }),
    ann: {
      index: createAnnIndex({
        dataDir: config.dataDir,
        maxBytes: config.knowledgeAnn.memoryBytes,
        settings: { expansionSearch: config.knowledgeAnn.efSearch },
        log: deps.loggerInstance as Logger | undefined,
      }),
      minChunks: config.knowledgeAnn.minChunks,
    },
    storageLimit: knowledgeStorageLimit,
  });
  const toolRuntime = createToolRuntime({
    config,
    egress: toolEgress,
    reserved,
    llm,
    connectionFor: (organizationId, provider) => connections.connectionFor(organizationId, provider),
    sendgridSettings: (organizationId) => connections.activeSecrets(organizationId, 'sendgrid_config'),
    // An MCP connection's tools, listed again (and kept) when a run finds them stale.
    mcpTools: { list: tools.listMcpTools },
    mcpOauth,
    // A vector store tool searches one of the organization's knowledge bases.
    knowledgeSearch: async (organizationId, knowledgeBaseId, query, topK) => ({
      hits: await knowledge.search(organizationId, knowledgeBaseId, query, topK),
    }),
  });
  /** Plans, trials and limits (modules/billing); Stripe collects when STRIPE_SECRET_KEY is set. */
  const billingRepository = createBillingRepository(db, audit);
  const stripe = config.stripe.secretKey
    ? createStripeClient(config.stripe, createStripeEgress(config, reserved))
    : null;
  const billing = createBillingService({
    repository: billingRepository,
    usage: createPlanUsagePresenter(db),
    provider: stripe
      ? createStripeProvider({
          stripe,
          publishableKey: config.stripe.publishableKey ?? null,
          store: { ...billingRepository, ...createStripeCustomerPresenter(db) },
        })
      : createNoPaymentProvider(),
    events,
    clock: deps.clock,
    knowledgeStorageUsed: knowledge.storageUsed,
  });
  const webhookSecrets = createWebhookSecrets(box);
  // The activation gate needs the evaluations, which need this service: it is bound once they exist.
  const activationGate: { service?: ActivationGateService } = {};
  const workflows = createWorkflowsService(
    workflowsRepository,
    webhookSecrets,
    () => activationGate.service?.port,
  );
  /** The worker role's idle loops, lent to the run starts of this process while it runs (worker.ts). */
  const localClaims = createLocalClaims();
  const executions = createExecutionsService({
    repository: executionsRepository,
    workflows,
    events,
    limits: billing,
    spend,
    // A chat app's monthly cap (modules/mcp): its chat runs' start reads it.
    chatCapMicros: chatCapMicrosSql,
    localClaims,
  });
  /** Agents' memories (modules/memory): kept and recalled by the runs, listed on the Advanced tab. */
  const memory = createMemoryService({
    repository: createMemoryRepository(db),
    llm,
    connectionFor: embeddingConnection,
    agentExists,
  });
  const agentModel = createAgentModel({
    llm,
    connections,
    tools,
    toolRuntime,
  });
  /** The models per provider (Settings → Tools, the provider's own list) and a new agent's default. */
  const providerModels = createProviderModels(connections, createModelCatalogue({ gateway: llm }));
  /** The server's own mail transport (SMTP_URL) for system messages; off without it. */
  const mailer = createMailer({ settings: config.mail, allowList: config.egressAllowList, reserved });
  const authRepository = createAuthRepository(db, audit);
  const accountLinks = createAccountLinksService({
    config,
    tokens: createAccountTokensRepository(db),
    users: authRepository,
    rateLimits: createRateLimitRepository(db),
    mailer,
    endAllSessions: (userId) => services.auth.endAllSessions(userId),
    logger: deps.loggerInstance as Logger | undefined,
  });
  /** Approvals' messages and email links (modules/executions/approval-links.*): the approvers' addresses from the team's list. */
  const membersPresenter = createMembersPresenter(db);
  const organizationSettings = createOrganizationSettingsService({
    repository: createOrganizationSettingsRepository(db),
    secrets: box,
  });
  /**
   * Budget alerts (modules/costs): by email to the owners and admins when the server can send mail,
   * and as `{ text }` to the organization's notification URL when it has one.
   */
  /** Tells owners and admins: by email, and as `{ text }` to the organization's notification URL. */
  async function notifyAdmins(organizationId: string, alert: { subject: string; text: string }) {
    const admins = (await membersPresenter.listMembers(organizationId)).filter(
      (m) => m.role === 'owner' || m.role === 'admin',
    );
    const mails = mailer.configured
      ? admins.map((m) => mailer.send({ to: m.email, subject: alert.subject, text: alert.text }))
      : [];
    const url = await organizationSettings.approvalNotificationUrl(organizationId);
    const posted = url ? [postApprovalNotice(egress, url, { text: alert.text })] : [];
    const failed = (await Promise.allSettled([...mails, ...posted])).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
  const budgetAlerts = createBudgetAlerts({
    send: notifyAdmins,
    workflowName: async (organizationId, workflowId) =>
      (await workflowsRepository.get(organizationId, workflowId).catch(() => undefined))?.name,
    settingsUrl: `${config.publicUrl}/settings/profile?tab=costs`,
    logger: deps.loggerInstance as Logger | undefined,
  });
  /** The organization's published workflows as its MCP server offers them (modules/mcp). */
  const publishedTools = createPublishedToolsPresenter(db);
  /** The chat apps (modules/chat), and a message's turn: rate limits, its run, its reply followed. */
  const chatApps = createChatAppsPresenter(db);
  const chatTurns = createChatTurns({ executions, workflows, rateLimits: createRateLimitRepository(db) });
  const approvalLinks = createApprovalLinksService({
    repository: createApprovalLinksRepository(db),
    approvals: { decide: (auth, id, request) => services.approvals.decide(auth, id, request) },
    members: (organizationId) => membersPresenter.listMembers(organizationId),
    mailer,
    sendgridSettings: (organizationId) => connections.activeSecrets(organizationId, 'sendgrid_config'),
    notificationUrl: (organizationId) => organizationSettings.approvalNotificationUrl(organizationId),
    egress,
    publicUrl: config.publicUrl,
    logger: deps.loggerInstance as Logger | undefined,
    clock: deps.clock,
  });
  const evaluations = createEvaluationsModule({
    db,
    workflows,
    executions,
    grading: {
      llm,
      connectionFor: (organizationId, provider) => connections.connectionFor(organizationId, provider),
    },
    notifyAdmins,
    publicUrl: config.publicUrl,
    clock: deps.clock,
    logger: deps.loggerInstance as Logger | undefined,
  });
  activationGate.service = evaluations.gate;
  // Code steps' sandbox: its threads start with the first Code step (docs/decisions/0046).
  const sandbox = createCodeSandbox();
  const guardrails = createGuardrailsService();
  const services = {
    mcpOauth,
    audit,
    /** Datasets, evaluations, eval runs and the activation gate (modules/evaluations). */
    evaluations,
    billing,
    /** The Stripe SDK when Stripe is configured (the webhook route verifies signatures with it). */
    stripe,
    metrics,
    /** The queue's depth, read when Prometheus scrapes this process (platform/metrics). */
    queueDepth: createQueueDepth(db),
    events,
    llm,
    providerModels,
    connections,
    tools,
    /** The Test action of Vector Store tools (their knowledge base, or their Pinecone index). */
    toolTester: createToolTester({
      tools,
      egress: toolEgress,
      pineconeApiUrl: config.pineconeApiUrl,
      knowledgeBase: (organizationId, id) => knowledge.get(organizationId, id),
    }),
    auth: createAuthService({
      config,
      repository: authRepository,
      rateLimits: createRateLimitRepository(db),
      tokens: createTokenService(config.jwtSecret),
      events,
      billing,
      verification: accountLinks,
    }),
    /** Email verification and password reset links (modules/auth/account-links.*). */
    accountLinks,
    organizations: createOrganizationsService(createOrganizationsPresenter(db), createAnalyticsPresenter(db)),
    agents: createAgentsService({
      repository: agentsRepository,
      events,
      agentModel,
      limits: billing,
      memory,
      defaultModel: providerModels.defaultModel,
    }),
    workflows,
    executions,
    /** "Test this node": one step run outside any run, with a run's ports (nothing stored). */
    nodeTests: createNodeTests({
      workflows,
      agents: agentsRepository,
      agentModel,
      reads: createNodeTestReads(db),
      tools: { tools, runtime: toolRuntime },
      sandbox,
      guardrails,
    }),
    /** Schedules, webhooks and email start their runs through it. */
    triggers: createTriggersService({ executions, workflows, events }),
    /** The scheduler's reads and tick claims (every worker runs the scheduler, see worker.ts). */
    schedules: createSchedulesRepository(db),
    /** The email monitor's claims and records (every worker runs it, see worker.ts). */
    emailMonitor: createEmailMonitorRepository(db),
    /** The workflows someone watches live, as announced by the processes holding the sockets. */
    watchedWorkflows,
    /** Where the worker role lends its idle loops to this process's run starts (worker.ts). */
    localClaims,
    /** Used by worker processes (main.ts, tests) to run queued executions. */
    runner: createExecutionRunner({
      repository: executionsRepository,
      workflows: workflowsRepository,
      agentModel,
      events,
      budgets: runBudgets,
      chatCapMicros: chatCapMicrosSql,
      delivery: createOutputDelivery({
        config,
        egress,
        sendgridSettings: (organizationId) => connections.activeSecrets(organizationId, 'sendgrid_config'),
      }),
      logger: deps.loggerInstance as Logger | undefined,
      leaseMs: config.runs.leaseMs,
      maxAttempts: config.runs.maxAttempts,
      watching: watchedWorkflows.isWatched,
      memory,
      // A Tool step calls one of the organization's tools as its agents do, with no model.
      tools: { tools, runtime: toolRuntime },
      sandbox,
      guardrails,
      approvals: approvalsRepository,
      clock: deps.clock,
      notifyApprovers: approvalLinks.notifyApprovers,
    }),
    /** People in the loop: the inbox's reads and decisions (modules/executions/approvals.service.ts). */
    approvals: createApprovalsService({ repository: approvalsRepository, events, clock: deps.clock }),
    /** The emailed Approve and Reject links of approvals. */
    approvalLinks,
    /** The wake-up loop's due waits (every worker runs it, see worker.ts). */
    approvalsRepository,
    clock: deps.clock,
    memory,
    /** Code steps' sandbox threads, stopped with the process (start.ts). */
    sandbox,
    system: createSystemService({ config, repository: createSystemRepository(db), metrics, connections }),
    /** Knowledge bases, their documents and search (modules/knowledge); one search index per process. */
    knowledge,
    /** Used by worker processes: ingestion of queued documents (see worker.ts). */
    ingestion: createIngestion({
      repository: createIngestionRepository(db),
      llm,
      connectionFor: embeddingConnection,
      events,
      extraction: config.knowledgeExtraction,
      storageLimit: knowledgeStorageLimit,
      logger: deps.loggerInstance as Logger | undefined,
    }),
    /** The organization's Microsoft 365 connection (OAuth tokens sealed; email triggers read the inbox with it). */
    microsoft: createMicrosoftService({
      config,
      repository: createMicrosoftRepository(db, audit),
      box,
      egress: createMicrosoftEgress(config, reserved),
    }),
  };
  return {
    ...services,
    /** The knowledge bases an agent searches, through vector-store tools linked to it (modules/agents). */
    agentKnowledge: createAgentKnowledgeService({
      agents: services.agents,
      tools,
      knowledge,
    }),
    /** Members, roles, invitations and renaming of an organization (modules/organizations/team.*). */
    team: createTeamService({
      config,
      repository: createTeamRepository(db, audit),
      members: createMembersPresenter(db),
      auth: services.auth,
      events,
      limits: billing,
      sendgridSettings: (organizationId) => connections.activeSecrets(organizationId, 'sendgrid_config'),
      egress: toolEgress,
      mailer,
      verificationLinks: services.accountLinks,
    }),
    /** The organization's settings: its trusted sender domains and approval notification URL (modules/organizations). */
    organizationSettings,
    /** Model prices: the built-in table and the organization's own (modules/costs). */
    prices,
    /** Model spend: the costs report, the monthly budget (modules/costs). */
    spend,
    /** The signed-in user's profile and password (a password change ends their other sessions). */
    profile: createProfileService({
      config,
      repository: createProfileRepository(db),
      rateLimits: createRateLimitRepository(db),
      endOtherSessions: (userId, keepSessionId) => services.auth.endOtherSessions(userId, keepSessionId),
      verification: services.accountLinks,
    }),
    /** Organization API keys: programs call the API with them (member powers, rate limited per key). */
    apiKeys: createApiKeysService({
      repository: createApiKeysRepository(db, { isMember: isMemberSql, displayName: userDisplayName }, audit),
      billing,
      maxPerMinute: config.apiKeyMaxPerMinute,
    }),
    /** OAuth 2.1 for MCP clients: Crewline as the authorization server of its /mcp endpoint (modules/oauth). */
    oauth: createOAuthService({
      repository: createOAuthRepository(db, { isMember: isMemberSql, displayName: userDisplayName }),
      rateLimits: createRateLimitRepository(db),
      publicUrl: config.publicUrl,
    }),
    /** The template marketplace: the shipped library and each organization's own templates. */
    templates: createTemplatesService({
      repository: createTemplatesRepository(db),
      agents: services.agents,
      workflows,
      limits: billing,
      events,
    }),
    /** Talk to Sales: the landing page's contact form and the operator's list (modules/sales). */
    sales: createSalesService({
      repository: createSalesRepository(db),
      rateLimits: createRateLimitRepository(db),
      mailer,
      settings: config.sales,
    }),
    /** The webhook trigger: a workflow's secret, and the public route's calls (modules/triggers). */
    webhooks: createWebhookService({
      config,
      secrets: createWebhookSecretsService({
        config,
        repository: workflowsRepository,
        secrets: webhookSecrets,
      }),
      rateLimits: createRateLimitRepository(db),
      signatures: createWebhookSignaturesRepository(db),
      triggers: services.triggers,
      executions,
      events,
    }),
    /** Where workflows are published: the organization's MCP server's tools (modules/mcp). */
    publishing: createPublishingService({
      repository: createPublishingRepository(db, audit),
      presenter: publishedTools,
      workflows,
      publicUrl: config.publicUrl,
    }),
    /**
     * Chat apps (modules/chat): who may use an app's public routes, its threads and their messages
     * (each a run through the chat turn), and the organization's view of the threads.
     */
    chat: createChatService({
      apps: chatApps,
      turns: chatTurns,
      threads: createChatThreadsRepository(db),
      thread: createChatThreadPresenter(db),
      auth: services.auth,
      rateLimits: createRateLimitRepository(db),
      workflows,
    }),
    /** The chat apps as their surfaces read them, and a message's turn (its page, widget and /v1 share them). */
    chatApps,
    chatTurns,
    /** The chat's signed cookies: the visitor's, and a password app's unlock. */
    chatCookies: createChatCookies({ secret: config.jwtSecret, publicUrl: config.publicUrl }),
    /** What the /mcp endpoint's per-request servers are built from (modules/mcp/mcp-server.ts). */
    mcpServer: {
      tools: publishedTools,
      executions,
      logger: deps.loggerInstance as Logger | undefined,
    },
  };
}
export type Services = ReturnType<typeof createServices>;

export async function buildApp(deps: AppDeps, services: Services = createServices(deps)) {
  const app = Fastify({
    ...(deps.loggerInstance
      ? { loggerInstance: deps.loggerInstance }
      : { logger: deps.logger ?? loggerOptions(deps.config.logLevel) }),
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.config.trustProxy,
    // Zod validates and serializes (below): Fastify's Ajv and fast-json-stringify load only if asked for.
    schemaController: lazySchemaController,
  }).withTypeProvider<ZodTypeProvider>();

  const routeInventory: RouteInventoryEntry[] = [];
  app.decorate('routeInventory', routeInventory);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      routeInventory.push({
        method,
        url: route.url,
        public: route.config?.public === true,
        role: route.config?.role,
        membershipOptional: route.config?.membershipOptional === true,
        sessionOnly: route.config?.sessionOnly === true,
      });
    }
  });

  // First, so a request's span covers every hook; nothing is registered with traces off.
  registerHttpTracing(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerInputGuard(app);
  registerSecurityHeaders(app, { stripe: deps.config.stripe.secretKey !== undefined });
  registerRequestMetrics(app, services.metrics);
  registerAuthGuard(app, services.auth, services.apiKeys);
  registerRoleGuard(app);
  // Before the routes: @fastify/swagger documents the routes registered after it (platform/openapi.ts).
  await registerOpenApi(app, { publicUrl: deps.config.publicUrl });
  // The websocket plugin must come before every other route (see registerRealtime).
  await registerRealtime(app, {
    auth: services.auth,
    events: services.events,
    realtime: createRealtimeService(createRealtimeRepository(deps.db)),
    maxSocketsPerUser: deps.config.wsMaxPerUser,
  });

  await app.register(systemRoutes(services.system));
  await app.register(openApiRoutes());
  await app.register(authRoutes(services.auth));
  await app.register(profileRoutes(services.profile));
  await app.register(accountLinksRoutes(services.accountLinks));
  await app.register(organizationsRoutes(services.organizations));
  await app.register(teamRoutes(services.team, services.auth));
  await app.register(organizationSettingsRoutes(services.organizationSettings));
  await app.register(pricesRoutes(services.prices));
  await app.register(spendRoutes(services.spend));
  await app.register(agentsRoutes(services.agents));
  await app.register(agentKnowledgeRoutes(services.agentKnowledge));
  await app.register(workflowsRoutes(services.workflows));
  await app.register(executionsRoutes(services.executions));
  await app.register(nodeTestRoutes(services.nodeTests));
  await app.register(approvalsRoutes(services.approvals));
  await app.register(approvalLinksRoutes(services.approvalLinks));
  await app.register(webhookRoutes(services.webhooks));
  await app.register(toolsRoutes(services.tools, services.toolTester));
  await app.register(
    mcpOauthRoutes(services.mcpOauth, {
      require: (organizationId, id) => services.tools.requireOauthConnection(organizationId, id),
      find: (organizationId, id) => services.tools.findOauthConnection(organizationId, id),
      refresh: (organizationId, id) => services.tools.mcpRefresh(organizationId, id),
    }),
  );
  await app.register(connectionsRoutes(services.connections, services.providerModels));
  await app.register(microsoftRoutes(services.microsoft));
  await app.register(billingRoutes(services.billing));
  await app.register(templatesRoutes(services.templates));
  await app.register(salesRoutes(services.sales));
  await app.register(apiKeysRoutes(services.apiKeys));
  await app.register(auditRoutes(services.audit));
  await app.register(oauthRoutes(services.oauth));
  await app.register(knowledgeRoutes(services.knowledge));
  await app.register(memoryRoutes(services.memory));
  await app.register(publishingRoutes(services.publishing));
  await app.register(evaluationsRoutes(services.evaluations));
  // Chat apps: the hosted page's and the widget's public routes, and the organization's view of the threads.
  await app.register(chatRoutes({ chat: services.chat, cookies: services.chatCookies }));
  await app.register(chatThreadsRoutes(services.chat));
  // The MCP endpoint: outside /api, authenticated by an organization API key of its own accord.
  await app.register(
    mcpRoutes({
      server: services.mcpServer,
      apiKeys: services.apiKeys,
      oauth: services.oauth,
      // An app connected by OAuth acts as a key of its member: the plan must include API access too.
      apiAccess: (organizationId) => services.billing.checkApiAccess(organizationId),
      publicUrl: deps.config.publicUrl,
    }),
  );
  // The OpenAI-compatible endpoint (/v1): outside /api, authenticated by an organization API key of its own accord.
  await app.register(
    openAiCompatRoutes({
      apiKeys: services.apiKeys,
      apps: services.chatApps,
      turns: services.chatTurns,
    }),
  );
  await app.register(
    stripeWebhookRoutes({
      billing: services.billing,
      stripe: services.stripe,
      webhookSecret: deps.config.stripe.webhookSecret,
    }),
  );
  // The API reference at /docs/api (Scalar, served from here); /docs and the rest stay the web app's.
  await registerApiReference(app);
  // GET /metrics for Prometheus, outside /api: behind METRICS_TOKEN, or 404 (platform/metrics).
  await app.register(
    metricsRoutes(
      deps.config.metrics,
      await processMetrics(deps.config.metrics, deps.db, services.queueDepth),
    ),
  );
  // The chat page may be framed by its app's allowed origins, the widget's script loaded by any site.
  registerChatPageHeaders(app, {
    apps: services.chatApps,
    stripe: deps.config.stripe.secretKey !== undefined,
  });
  await registerSpa(app, deps.config.webDistDir);
  return app as unknown as FastifyInstance;
}

/** One route as registered: who may call it (public, minimum organization role, membership optional). */
export type RouteInventoryEntry = {
  method: string;
  url: string;
  public: boolean;
  /** The weakest organization role the route needs (`config.role`); undefined means any member. */
  role?: OrganizationRole;
  membershipOptional: boolean;
  /** Refused to API keys (`config.sessionOnly`). */
  sessionOnly: boolean;
};

declare module 'fastify' {
  interface FastifyInstance {
    routeInventory: RouteInventoryEntry[];
  }
}
