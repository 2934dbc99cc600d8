export * as schema from './schema';
export * from './schema';
export {
  CONNECT_TIMEOUT_MS,
  createDb,
  lockForTransaction,
  transactionWithExecutor,
  type CreateDbOptions,
  type Db,
  type SqlExecutor,
  type Tx,
} from './client';
export { afterCommit } from './after-commit';
export { runMigrations, migrationsFolder } from './migrate';
export { startEmbeddedPostgres, type EmbeddedPostgresHandle, type EmbeddedPostgresOptions } from './embedded';
export {
  assertFolderReachable,
  findBlockingFolder,
  type BlockingFolder,
  type PosixAccount,
} from './folder-access';
export {
  createDatabaseFromTemplate,
  createMigratedDatabase,
  databaseUrl,
  dropDatabase,
  redactUrl,
} from './database-admin';
export { builtForColumns, nestedExtra, rowFromJson, rowJson, type ExtraColumns } from './json-rows';
