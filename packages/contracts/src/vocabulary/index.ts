// The product's vocabulary as data: plans, providers and models, tool categories, process and trigger
// kinds, run statuses. Plain values without zod and without side effects, so the web imports them
// (`@crewline/contracts/vocabulary`) without loading the schemas; the schemas build their enums
// from them. Never spell these values anywhere else.
export * from './plans';
export * from './providers';
export * from './tool-categories';
export * from './process-kinds';
export * from './trigger-kinds';
export * from './run-statuses';
