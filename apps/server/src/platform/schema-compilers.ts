import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

/** What Fastify calls to make a schema compiler: (the instance's shared schemas, its compiler options). */
type CompilerFactory = (externalSchemas: unknown, options?: unknown) => unknown;

// Fastify's own dependencies, as Fastify itself requires them.
const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

function loadedOnFirstCall(module: string): CompilerFactory {
  let factory: CompilerFactory | undefined;
  return (externalSchemas, options) => {
    factory ??= (requireFromFastify(module) as () => CompilerFactory)();
    return factory(externalSchemas, options);
  };
}

/**
 * Fastify's default schema compilers (Ajv for validation, fast-json-stringify for serialization), loaded
 * only if Fastify asks for one. A Fastify instance made without this option loads both at once: about
 * 90 ms of every start and their memory, for nothing here, since every route of ours validates and
 * serializes with zod (buildApp sets those compilers). A route with a JSON Schema in a scope without
 * compilers of its own would still get the defaults, loaded then.
 */
export const lazySchemaController = {
  compilersFactory: {
    buildValidator: loadedOnFirstCall('@fastify/ajv-compiler'),
    buildSerializer: loadedOnFirstCall('@fastify/fast-json-stringify-compiler'),
  },
} as NonNullable<FastifyServerOptions['schemaController']>;
