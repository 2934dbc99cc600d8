import { describe, expect, it } from 'vitest';

import {
  afterAuthPath,
  carryInvite,
  invitationPath,
  invitationSentence,
  isInvitationToken,
  loginHrefForInvite,
  signupHrefForInvite,
} from './invite-links';

const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

describe('invitation links', () => {
  it('recognizes a token', () => {
    expect(isInvitationToken(token)).toBe(true);
    expect(isInvitationToken('short')).toBe(false);
    expect(isInvitationToken('../../evil/path/xxxxxxxxxxxx')).toBe(false);
    expect(isInvitationToken(null)).toBe(false);
  });

  it('sends the invitee to sign up with the email filled in, or to log in, and back', () => {
    expect(signupHrefForInvite(token, 'ada+x@example.com')).toBe(
      `/signup?email=ada%2Bx%40example.com&invite=${token}`,
    );
    expect(loginHrefForInvite(token)).toBe(`/login?invite=${token}`);
    expect(loginHrefForInvite(token, 'a@b.co')).toBe(`/login?invite=${token}&email=a%40b.co`);
    expect(afterAuthPath(new URLSearchParams(`invite=${token}`))).toBe(`/invite/${token}`);
    expect(invitationPath(token)).toBe(`/invite/${token}`);
  });

  it('opens the dashboard after signing in without a (valid) invitation', () => {
    expect(afterAuthPath(new URLSearchParams())).toBe('/dashboard');
    expect(afterAuthPath(new URLSearchParams('invite=//evil.example'))).toBe('/dashboard');
  });

  it('keeps the invitation on the link between the login and signup forms', () => {
    const search = new URLSearchParams({ invite: token, email: 'a@b.co' });
    expect(carryInvite('/signup', search)).toBe(signupHrefForInvite(token, 'a@b.co'));
    expect(carryInvite('/login', search)).toBe(loginHrefForInvite(token, 'a@b.co'));
    expect(carryInvite('/login', new URLSearchParams())).toBe('/login');
  });

  it('says who invites to what', () => {
    const preview = { invitedBy: 'Ada Lovelace', organization: { name: 'Acme' }, role: 'admin' };
    expect(invitationSentence(preview)).toBe('Ada Lovelace invited you to join Acme as an admin.');
    expect(invitationSentence({ ...preview, invitedBy: null, role: 'member' })).toBe(
      'Someone invited you to join Acme as a member.',
    );
  });
});
