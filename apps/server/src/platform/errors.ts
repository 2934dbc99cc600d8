import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from './database-unavailable';
import { describeError } from './logger';

/** A failure the user caused or may see; anything else is a 500 with a generic message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: { path: string; message: string }[],
    /** More fields of the answer beside `message`, for refusals a client acts on (`code`, figures). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
export class BadRequestError extends AppError {
  constructor(message: string, errors?: { path: string; message: string }[]) {
    super(400, message, errors);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Not signed in') {
    super(401, message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do this') {
    super(403, message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(409, message, undefined, details);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

/** What was asked for is switched off for now (a chat app turned off): 503, try again later. */
export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}

/** A plan limit blocks the action: 402 `{ message, code: 'plan_limit', limit, plan }` (planLimitErrorSchema). */
export class PlanLimitError extends AppError {
  readonly code = 'plan_limit';
  constructor(
    message: string,
    readonly limit: 'agents' | 'executions' | 'members' | 'api_access' | 'knowledge_storage',
    /** The plan whose limit applies; 'free' without a trial or subscription. */
    readonly plan: string,
  ) {
    super(402, message);
  }
}

/**
 * A budget stops the spending (docs/product-rules.md, Costs): 402 `{ message, code: 'budget_exceeded',
 * scope, spentUsd, capUsd }` (budgetExceededSchema). In a run, its message is the run's error.
 */
export class BudgetExceededError extends AppError {
  readonly code = 'budget_exceeded';
  constructor(
    message: string,
    readonly scope: 'run' | 'workflow' | 'chat' | 'organization' | 'plan',
    readonly spentUsd: number,
    readonly capUsd: number,
  ) {
    super(402, message);
  }
}

const fastifyMessages: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed JSON in request body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Request body is empty but Content-Type is application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large (the limit is 1 MiB)'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported Content-Type: send application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Invalid Content-Length'],
};

/** The one place where errors become HTTP answers: `{ message, errors? }` (docs/architecture.md, Request path). */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'Invalid value',
      }));
      return reply.status(400).send({ message: errors[0]?.message ?? 'Invalid request', errors });
    }
    if (error instanceof AppError) {
      if (error instanceof TooManyRequestsError) reply.header('retry-after', String(error.retryAfterSeconds));
      if (error instanceof PlanLimitError) {
        const { message, code, limit, plan } = error;
        return reply.status(402).send({ message, code, limit, plan });
      }
      if (error instanceof BudgetExceededError) {
        const { message, code, scope, spentUsd, capUsd } = error;
        return reply.status(402).send({ message, code, scope, spentUsd, capUsd });
      }
      if (error.details)
        return reply.status(error.statusCode).send({ ...error.details, message: error.message });
      return reply
        .status(error.statusCode)
        .send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
    }
    // The database is down or restarting: nothing was wrong with the request, so say when to retry.
    // Only the driver's reason is logged (a DrizzleQueryError's own message carries the query's parameters).
    const unavailable = databaseUnavailable(error);
    if (unavailable) {
      request.log.warn({ code: unavailable.code, reason: unavailable.message }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return reply
        .status(503)
        .send({ message: 'The service is temporarily unavailable. Try again in a moment.' });
    }
    const known = error.code ? fastifyMessages[error.code] : undefined;
    if (known) return reply.status(known[0]).send({ message: known[1] });
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return reply.status(400).send({ message: 'Malformed JSON in request body' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ message: error.message });
    }
    // Type, message, code and call sites only: never the SQL, its parameters or anything the error carries.
    request.log.error({ err: describeError(error) }, 'unhandled error');
    return reply.status(500).send({ message: 'Internal server error' });
  });
}
