import { WorkflowRunError } from '@crewline/engine';
import { DrizzleQueryError } from 'drizzle-orm';
import { databaseUnavailable } from '../../platform/database-unavailable';
import { BudgetExceededError } from '../../platform/errors';
import { LlmCallError, LlmConfigurationError } from '../../platform/llm';
import { OutputDeliveryError } from './output-delivery';
import { ToolStepError } from './tool-step';
import { CodeStepError } from '../../platform/sandbox/code-sandbox';

/** Why an attempt stopped without an outcome of its own: the run was cancelled or taken over, or the worker is stopping. */
export class Interrupted extends Error {
  constructor(readonly reason: 'cancelled' | 'superseded' | 'shutdown') {
    super(`run interrupted: ${reason}`);
  }
}

/**
 * Failures a run can meet in normal use (provider errors, missing configuration, a broken workflow,
 * an output destination that refused the output, a Tool step's tool that failed, a Code step's code
 * that threw or ran past a limit, a budget reached):
 * their messages are
 * written for the user.
 */
export const isExpected = (error: unknown): error is Error =>
  error instanceof LlmCallError ||
  error instanceof LlmConfigurationError ||
  error instanceof WorkflowRunError ||
  error instanceof OutputDeliveryError ||
  error instanceof ToolStepError ||
  error instanceof CodeStepError ||
  error instanceof BudgetExceededError;

/** What the user reads in the Error box: the provider's or engine's words, never a stack. */
export function readableError(error: unknown): string {
  if (isExpected(error)) return error.message;
  // Drizzle's message quotes the failed statement and its parameters: for the server log, not the run.
  if (error instanceof DrizzleQueryError) return 'The run stopped unexpectedly: a database error';
  if (error instanceof Error && error.message) return `The run stopped unexpectedly: ${error.message}`;
  return 'The run stopped unexpectedly';
}

/** A cancel, a stopping worker or the database away stop the run: never a step's (or a map item's) failure. */
export const stopsRun = (error: unknown): boolean =>
  error instanceof Interrupted || (!isExpected(error) && databaseUnavailable(error) !== undefined);
