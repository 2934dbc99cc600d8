// The chat page's fixed texts and figures, quoted from the contracts (chatMessages and the chat
// constants) rather than imported: the contracts' values would pull zod into the page's chunk, which
// has none (it is the one screen a visitor of a chat app downloads). chat-texts.test.ts checks each
// one against the contracts, so the page cannot drift from the product.

export const CHAT_TEXTS = {
  notFound: 'This chat does not exist, or is not available right now.',
  off: 'This chat is switched off right now. Try again later.',
  signIn: 'Sign in as a member of the organization to use this chat.',
  password: 'This chat needs its password.',
  wrongPassword: 'That password is not right.',
  threadNotFound: 'This conversation does not exist, or has expired.',
  tooMany: (seconds: number) => `Too many messages. Try again in ${seconds} s.`,
  capReached: 'This chat has used its budget for the month. Try again next month.',
  stillRunning: 'The reply is taking longer than usual: it will appear here when it is ready.',
  failed: 'Sorry, something went wrong while answering. Try again.',
} as const;

/** The longest message a person may send (CHAT_MAX_MESSAGE_CHARS). */
export const CHAT_MAX_MESSAGE_CHARS = 8_000;
/** The accent of an app whose theme names none (CHAT_DEFAULT_ACCENT). */
export const CHAT_DEFAULT_ACCENT = '#4f46e5';

/** What the page says when the server could not be reached, or answered something unexpected. */
export const CHAT_UNREACHABLE = 'The chat could not be reached. Check your connection and try again.';
