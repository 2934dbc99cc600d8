// A stand-in for a second server process (e.g. a worker): publishes one realtime event on the
// Postgres bus and exits. Usage: node --import tsx publish-event.ts <databaseUrl> <eventJson>
import { createDb } from '@crewline/db';
import { realtimeEventSchema } from '@crewline/contracts';
import { createPgEventBus } from '../platform/events';

const [databaseUrl, eventJson] = process.argv.slice(2);
const event = realtimeEventSchema.parse(JSON.parse(eventJson ?? ''));
const { pool, close } = createDb(databaseUrl ?? '', { max: 1 });
const logger = {
  info: () => undefined,
  warn: (obj: object, msg: string) => console.error(msg, obj),
};
const bus = createPgEventBus({ databaseUrl: databaseUrl ?? '', pool, logger });
await bus.publish(event);
await close();
console.log('published');
