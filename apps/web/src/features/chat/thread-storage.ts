// The visitor's open conversation per chat app, kept in localStorage so a reload (or a later visit)
// shows it again; the server keeps it as long as CHAT_THREAD_DAYS and answers 404 after.

const key = (slug: string) => `crewline-chat-thread:${slug}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled (privacy mode, a sandboxed frame): the conversation lasts the visit
  }
}

export const threadStorage = {
  get: (slug: string): string | null => storage()?.getItem(key(slug)) ?? null,
  set: (slug: string, threadId: string) => storage()?.setItem(key(slug), threadId),
  clear: (slug: string) => storage()?.removeItem(key(slug)),
};
