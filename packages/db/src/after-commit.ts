import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What waits for the commit of the transaction the current code runs in: set by the two ways a
 * transaction starts (`db.transaction`, `transactionWithExecutor`), unset outside any.
 */
const scope = new AsyncLocalStorage<(() => void)[]>();

/**
 * Runs `callback` once the current transaction has committed, and never if it rolls back; at once
 * outside a transaction, where a statement that came back has already committed. Notifications leave
 * this way (docs/decisions/0055-notifications-after-commit.md): a process that hears one already sees
 * what it announces.
 */
export function afterCommit(callback: () => void): void {
  const waiting = scope.getStore();
  if (waiting) waiting.push(callback);
  else callback();
}

/**
 * Runs `transaction` (which begins and commits) with a scope for `afterCommit`, then what its
 * statements left there, in their order; nothing of it when it throws (rolled back).
 */
export async function withCommitScope<T>(transaction: () => Promise<T>): Promise<T> {
  const waiting: (() => void)[] = [];
  const result = await scope.run(waiting, transaction);
  for (const callback of waiting) callback();
  return result;
}
