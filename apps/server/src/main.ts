// The server process's entry: `node --max-semi-space-size=8 --import tsx apps/server/src/main.ts`
// (`npm start` imports it from scripts/start.ts, once the web app is built). Before the server's
// modules load, platform/module-resolution.ts takes Node's slow path out of drizzle-orm's imports;
// start.ts then reads the configuration, starts the embedded PostgreSQL and meanwhile loads the rest.
import { registerFastModuleResolution } from './platform/module-resolution';

// tsx turns on source maps for every module it loads; Node then parses and keeps each one: 23 MiB of
// a server at rest and 140 ms of its start. Off unless asked for with Node's own --enable-source-maps
// (in NODE_OPTIONS), for stack traces that point into the TypeScript sources.
const sourceMapsAsked = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes(
  '--enable-source-maps',
);
if (!sourceMapsAsked) process.setSourceMapsEnabled(false);
registerFastModuleResolution();
await import('./start');
