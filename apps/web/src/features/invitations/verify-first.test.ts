import { describe, expect, it } from 'vitest';

import { asksInviterForLink } from './verify-first';

describe('asksInviterForLink', () => {
  it('sends the invitee to the inviter only when the server mails no verification links', () => {
    expect(asksInviterForLink({ verificationMailed: false })).toBe(true);
    expect(asksInviterForLink({ verificationMailed: true })).toBe(false);
    // A preview from a server without the flag keeps Resend.
    expect(asksInviterForLink({} as { verificationMailed: boolean })).toBe(false);
  });
});
