import { z } from 'zod';
import { realtimeEventSchema, type RealtimeEvent } from '@crewline/contracts';

/**
 * A NOTIFY channel and what travels on it: `encode` makes the payload text, `decode` reads it back
 * and throws on anything else (a notification from an older or broken sender is dropped, logged).
 */
export type Channel<Payload> = {
  readonly name: string;
  encode(payload: Payload): string;
  decode(text: string): Payload;
};

/** Channel names are identifiers (LISTEN takes no parameters), so only plain names are accepted. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A JSON channel whose payload `schema` checks. */
function jsonChannel<Schema extends z.ZodType>(name: string, schema: Schema): Channel<z.infer<Schema>> {
  return {
    name,
    encode: (payload) => JSON.stringify(payload),
    decode(text) {
      const parsed = schema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(parsed.error.message);
      return parsed.data;
    },
  };
}

/**
 * Sessions that ended or a membership that was removed: every process closes or trims the
 * websockets concerned. Ids only, so the notification stays small however many sessions a user has.
 */
export const sessionChangeSchema = z.discriminatedUnion('type', [
  /** Logout: that session's sockets close. */
  z.object({ type: z.literal('session_ended'), sessionId: z.string() }),
  /** E.g. a password change: every session of the user ends except the one that made the change. */
  z.object({
    type: z.literal('user_sessions_ended'),
    userId: z.string(),
    exceptSessionId: z.string().optional(),
  }),
  /** The user left the organization: its feed stops, and sessions signed in to it end. */
  z.object({ type: z.literal('membership_ended'), userId: z.string(), organizationId: z.string() }),
]);
export type SessionChange = z.infer<typeof sessionChangeSchema>;

/**
 * What the workers hear about runs, between servers only (the browser never sees it; its
 * workflow_execution_* events stay what they are): a run was queued (an idle loop claims it), a
 * stopping worker handed one back (another resumes it), or a user cancelled one (the worker running
 * it aborts its model calls).
 */
const runControlSchema = z.object({
  type: z.enum(['queued', 'handed_back', 'cancelled']),
  executionId: z.string(),
});
export type RunControl = z.infer<typeof runControlSchema>;

/** A notification on the events channel: one event, or several in the order they happened. */
const realtimeEventsSchema = z.union([realtimeEventSchema, z.array(realtimeEventSchema).min(1)]);

/**
 * Every NOTIFY channel of the server, in one place (docs/architecture.md, Realtime and
 * notifications). Each process LISTENs on all of them over one connection (createPgEventBus).
 */
export const channels = {
  /** Realtime events for the browser (the hub delivers them to the organization's sockets). */
  events: {
    name: 'crewline_events',
    // One event alone, several as an array in order; read back always as a list.
    encode: (events: RealtimeEvent[]) => JSON.stringify(events.length === 1 ? events[0] : events),
    decode(text: string): RealtimeEvent[] {
      const parsed = realtimeEventsSchema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(parsed.error.message);
      return Array.isArray(parsed.data) ? parsed.data : [parsed.data];
    },
  } satisfies Channel<RealtimeEvent[]>,
  /** Ended sessions and memberships: every hub closes the sockets concerned. */
  sessions: jsonChannel('crewline_sessions', sessionChangeSchema),
  /** Workflows someone watches live (`organizationId/workflowId` keys): workers stream their steps. */
  watch: jsonChannel('crewline_watch', z.array(z.string())),
  /** Run control for the run workers (queued, handed back, cancelled); the name predates the others. */
  runs: jsonChannel('crewline_jobs', runControlSchema),
  /** A knowledge document was queued or handed back: its id. The knowledge workers claim it. */
  knowledge: {
    name: 'crewline_knowledge',
    encode: (documentId: string) => documentId,
    decode: (text: string) => text,
  } satisfies Channel<string>,
} as const;

for (const channel of Object.values(channels))
  if (!CHANNEL_NAME.test(channel.name)) throw new Error(`invalid notification channel: ${channel.name}`);

/** The channel name as LISTEN takes it; throws for anything but a plain name. */
export function quoteChannel(name: string): string {
  if (!CHANNEL_NAME.test(name)) throw new Error(`invalid notification channel: ${name}`);
  return `"${name}"`;
}
