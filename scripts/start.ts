// `npm start`: builds the web app when apps/web/dist is missing, incomplete or older than its sources
// (scripts/web-build.ts), then runs the server (apps/server/src/main.ts) in this same process, so a
// start that needs no build costs the server's own start and a fingerprint of the web app's sources.
import path from 'node:path';
import { buildWebAppIfStale } from './web-build';

buildWebAppIfStale(path.join(import.meta.dirname, '..'));
await import('../apps/server/src/main');
