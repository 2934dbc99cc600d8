// The landing page's Use Template and Browse All Templates carried through sign-up and sign-in
// (template-cards.ts's templateSignupHref, lib/invite-links.ts's afterAuthPath and carryInvite, and
// the signed-out redirect of app-routes.tsx, signInFirstHref).
import { describe, expect, it } from 'vitest';

import { afterAuthPath, carryInvite, signInFirstHref } from '@/lib/invite-links';

import { templateSignupHref } from './template-cards';

const id = '0b6c3f8e-1d2a-4c5b-9e7f-123456789abc';
const searchOf = (href: string) => new URLSearchParams(href.split('?')[1] ?? '');

describe('Use Template → sign up → the template', () => {
  it('signs up with the template named and then opens it on the templates page', () => {
    const signup = templateSignupHref(id);
    expect(signup).toBe(`/signup?template=${id}`);
    expect(afterAuthPath(searchOf(signup))).toBe(`/templates?template=${id}`);
  });

  it('keeps the template when the visitor switches to sign in (and back)', () => {
    const login = carryInvite('/login', searchOf(templateSignupHref(id)));
    expect(login).toBe(`/login?template=${id}`);
    expect(afterAuthPath(searchOf(login))).toBe(`/templates?template=${id}`);
    expect(carryInvite('/signup', searchOf(login))).toBe(`/signup?template=${id}`);
  });

  it('ignores a template parameter that is not a template id', () => {
    expect(afterAuthPath(new URLSearchParams('template=../../admin'))).toBe('/dashboard');
    expect(afterAuthPath(new URLSearchParams('template=//evil.example'))).toBe('/dashboard');
  });

  it('an invitation still wins over a template', () => {
    const token = 'abcdefghijklmnop0123456789_-';
    expect(afterAuthPath(new URLSearchParams({ invite: token, template: id }))).toBe(`/invite/${token}`);
  });
});

describe('Browse All Templates signed out → sign in → templates', () => {
  it('sends a signed-out visit of an app page to sign in with the page to come back to', () => {
    const login = signInFirstHref('/templates');
    expect(login).toBe('/login?next=%2Ftemplates');
    expect(afterAuthPath(searchOf(login))).toBe('/templates');
    expect(afterAuthPath(searchOf(signInFirstHref('/workflows/edit/1', '?tab=runs')))).toBe(
      '/workflows/edit/1?tab=runs',
    );
    expect(carryInvite('/signup', searchOf(login))).toBe('/signup?next=%2Ftemplates');
  });

  it('never comes back to another origin', () => {
    for (const next of ['//evil.example', 'https://evil.example', '/\\evil.example', 'templates']) {
      expect(afterAuthPath(new URLSearchParams({ next }))).toBe('/dashboard');
    }
    expect(signInFirstHref('//evil.example')).toBe('/login');
    expect(signInFirstHref('/')).toBe('/login');
    // Signing in goes to the dashboard anyway.
    expect(signInFirstHref('/dashboard')).toBe('/login');
  });
});
