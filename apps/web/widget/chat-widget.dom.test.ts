import { within } from '@testing-library/dom';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import { mountChatWidget, widgetOptionsOf, type ChatWidgetOptions } from './chat-widget';

const options: ChatWidgetOptions = {
  origin: 'https://crewline.example',
  slug: 'help-desk',
  accent: '#0f766e',
};

function mounted() {
  const host = mountChatWidget(options);
  const root = within(host.shadowRoot as unknown as HTMLElement);
  const frame = () => host.shadowRoot!.querySelector('iframe');
  return { host, root, frame };
}

function post(origin: string, data: unknown, source: MessageEventSource | null) {
  window.dispatchEvent(new MessageEvent('message', { origin, data, source }));
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('the chat widget', () => {
  it('opens the chat in a frame made on the first open, and closes it from its button', async () => {
    const user = userEvent.setup();
    const { root, frame } = mounted();

    const launcher = root.getByRole('button', { name: 'Open chat' });
    expect(launcher.style.background).toMatch(/#0f766e|rgb\(15, 118, 110\)/);
    expect(launcher.getAttribute('aria-expanded')).toBe('false');
    expect(frame()).toBeNull();

    await user.click(launcher);
    expect(launcher.getAttribute('aria-label')).toBe('Close chat');
    expect(launcher.getAttribute('aria-expanded')).toBe('true');
    expect(frame()?.getAttribute('src')).toBe('https://crewline.example/chat/help-desk?embed=1');
    expect(frame()?.title).toBe('Chat');

    await user.click(root.getByRole('button', { name: 'Close chat' }));
    expect(launcher.getAttribute('aria-label')).toBe('Open chat');
    // Kept for the next open: the conversation is still there.
    const first = frame();
    await user.click(launcher);
    expect(frame()).toBe(first);
  });

  // Tabbing to it is the browser's (e2e/chat-widget.spec.ts): happy-dom's tab order skips shadow roots.
  it('opens from the keyboard and closes on Escape, the focus back on the launcher', async () => {
    const user = userEvent.setup();
    const { root } = mounted();
    const launcher = root.getByRole('button', { name: 'Open chat' });
    const focused = () => (launcher.getRootNode() as ShadowRoot).activeElement;

    launcher.focus();
    expect(focused()).toBe(launcher);
    await user.keyboard('{Enter}');
    expect(launcher.getAttribute('aria-label')).toBe('Close chat');

    await user.keyboard('{Escape}');
    expect(launcher.getAttribute('aria-label')).toBe('Open chat');
    expect(focused()).toBe(launcher);
  });

  it("closes on the chat page's close message from the chat's origin, and ignores any other origin's", async () => {
    const user = userEvent.setup();
    const { root, frame } = mounted();
    await user.click(root.getByRole('button', { name: 'Open chat' }));
    const source = frame()!.contentWindow;

    post('https://evil.example', { type: 'crewline-chat:close' }, source);
    post('https://crewline.example', { type: 'something-else' }, source);
    post('https://crewline.example', 'crewline-chat:close', source);
    expect(root.getByRole('button', { name: 'Close chat' })).toBeTruthy();

    post('https://crewline.example', { type: 'crewline-chat:close' }, source);
    expect(root.getByRole('button', { name: 'Open chat' })).toBeTruthy();
  });

  it("keeps its elements out of the host page's reach: nothing of it in the document's own tree", () => {
    const { host } = mounted();
    expect(host.parentElement).toBe(document.body);
    expect(host.children).toHaveLength(0);
    expect(document.querySelectorAll('button, iframe, style')).toHaveLength(0);
  });
});

describe('the widget options from its script tag', () => {
  function script(attributes: Record<string, string>) {
    const element = document.createElement('script');
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    return element;
  }

  it("takes the chat's origin from the script's address, or data-origin, and the accent from data-accent", () => {
    expect(
      widgetOptionsOf(
        script({ src: 'https://crewline.example/widget.js', 'data-app': 'help-desk' }),
        'https://shop.example/',
      ),
    ).toEqual({ origin: 'https://crewline.example', slug: 'help-desk', accent: '#4f46e5' });
    expect(
      widgetOptionsOf(
        script({
          src: '/assets/widget.js',
          'data-app': 'help-desk',
          'data-origin': 'https://chat.example:8443/',
          'data-accent': '#0F766E',
        }),
        'https://shop.example/',
      ),
    ).toEqual({ origin: 'https://chat.example:8443', slug: 'help-desk', accent: '#0F766E' });
  });

  it('refuses an accent that is not a hex colour, and a tag without data-app', () => {
    const base = 'https://shop.example/';
    expect(
      widgetOptionsOf(
        script({ src: 'https://crewline.example/widget.js', 'data-app': 'a', 'data-accent': 'red;x:y' }),
        base,
      )?.accent,
    ).toBe('#4f46e5');
    expect(widgetOptionsOf(script({ src: 'https://crewline.example/widget.js' }), base)).toBeUndefined();
  });
});
