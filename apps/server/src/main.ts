// The server process's entry: `node --max-semi-space-size=8 --import tsx apps/server/src/main.ts`
// (`npm start` imports it from scripts/start.ts, once the web app is built). Before the server's
// modules load, platform/module-resolution.ts takes Node's slow path out of drizzle-orm's imports;
// start.ts then reads the configuration, starts the embedded PostgreSQL and meanwhile loads the rest.
import { registerFastModuleResolution } from './platform/module-resolution';

registerFastModuleResolution();
await import('./start');
