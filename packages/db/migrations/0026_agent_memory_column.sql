ALTER TABLE "agents" ADD COLUMN "memory" jsonb;--> statement-breakpoint
-- Memory settings used to live in `config.memory`: an agent whose `config.memory` is an object gets it
-- as its memory settings, and it leaves `config`, which is free-form again. Anything else there (a
-- `true`, a string) was never memory settings and stays in `config`. The column holds the API's shape,
-- `{ enabled, connection, model }`: the old `embeddingProvider`/`embeddingModel` are renamed (a missing
-- one stays missing, and reads as the default like before).
UPDATE "agents" SET "memory" = jsonb_strip_nulls(jsonb_build_object(
    'enabled', "config"->'memory'->'enabled',
    'connection', "config"->'memory'->'embeddingProvider',
    'model', "config"->'memory'->'embeddingModel'
  )), "config" = "config" - 'memory'
WHERE jsonb_typeof("config"->'memory') = 'object';
