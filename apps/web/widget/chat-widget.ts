// The embeddable chat widget's launcher and panel (widget.ts mounts it from its script tag). It runs on
// other sites' pages, so it is written for them: no dependency and nothing loaded but the chat's own
// page, its DOM and styles in a shadow root (the host's CSS neither reaches in nor is reached), its
// styles a constructed sheet where the browser has them (a host CSP without 'unsafe-inline' blocks a
// <style> element, not those), its DOM built without innerHTML (a host with Trusted Types refuses that).

/** What the chat page posts to its parent when its own close button is pressed (`?embed=1`). */
const CLOSE_MESSAGE_TYPE = 'crewline-chat:close';
const DEFAULT_ACCENT = '#4f46e5';
const OPEN_LABEL = 'Open chat';
const CLOSE_LABEL = 'Close chat';

export type ChatWidgetOptions = {
  /** The chat's origin: the script's own unless `data-origin` says otherwise. */
  origin: string;
  slug: string;
  accent: string;
};

/** The widget's options from its script tag, or undefined when the tag names no app. */
export function widgetOptionsOf(script: HTMLScriptElement, base: string): ChatWidgetOptions | undefined {
  const slug = script.dataset.app?.trim();
  if (!slug) return undefined;
  const origin = new URL(script.dataset.origin || script.src, base).origin;
  const accent = script.dataset.accent?.trim() ?? '';
  return { origin, slug, accent: /^#([0-9a-f]{3}){1,2}$/i.test(accent) ? accent : DEFAULT_ACCENT };
}

const chatFrameUrl = ({ origin, slug }: ChatWidgetOptions) =>
  `${origin}/chat/${encodeURIComponent(slug)}?embed=1`;

// Desktop: a 380×600 panel above the bubble. A phone (≤ 480 px wide): the whole screen, the bubble hidden
// while it is open (the page's own close button and Escape close it) so it covers none of the chat.
const STYLES = `
:host{all:initial}
.launcher{position:fixed;right:20px;bottom:20px;z-index:2147483000;width:56px;height:56px;border:0;border-radius:50%;padding:0;margin:0;display:flex;align-items:center;justify-content:center;color:#fff;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);transition:transform .15s}
.launcher:hover{transform:scale(1.06)}
.launcher:focus-visible{outline:none;box-shadow:0 0 0 3px #fff,0 0 0 6px var(--accent)}
.launcher svg{width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.panel{position:fixed;right:20px;bottom:88px;z-index:2147483000;width:380px;height:600px;max-width:calc(100vw - 40px);max-height:calc(100vh - 108px);border-radius:16px;overflow:hidden;box-shadow:0 12px 40px rgba(0,0,0,.3);color-scheme:light dark;background:Canvas;display:none}
.open .panel{display:block}
.panel iframe{display:block;width:100%;height:100%;border:0;margin:0;padding:0}
@media (max-width:480px){.panel{inset:0;width:100%;height:100%;max-width:none;max-height:none;border-radius:0}.open .launcher{display:none}}
@media (prefers-reduced-motion:reduce){.launcher{transition:none}}
`;

const SVG = 'http://www.w3.org/2000/svg';

function icon(paths: string[]): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  for (const d of paths) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

const chatIcon = () => icon(['M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z']);
const closeIcon = () => icon(['M18 6 6 18', 'M6 6l12 12']);

function adoptStyles(root: ShadowRoot) {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
    root.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement('style');
    style.textContent = STYLES;
    root.append(style);
  }
}

/** Adds the launcher to the page; the panel's frame is made on the first open. Answers the host element. */
export function mountChatWidget(options: ChatWidgetOptions): HTMLElement {
  const host = document.createElement('div');
  host.setAttribute('data-crewline-chat', options.slug);
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root);

  const shell = document.createElement('div');
  shell.style.setProperty('--accent', options.accent);
  const panel = document.createElement('div');
  panel.className = 'panel';
  panel.id = 'crewline-chat-panel';
  const launcher = document.createElement('button');
  launcher.type = 'button';
  launcher.className = 'launcher';
  launcher.style.background = options.accent;
  launcher.setAttribute('aria-controls', panel.id);
  shell.append(panel, launcher);
  root.append(shell);

  let frame: HTMLIFrameElement | undefined;
  let open = false;

  function render() {
    shell.classList.toggle('open', open);
    launcher.setAttribute('aria-label', open ? CLOSE_LABEL : OPEN_LABEL);
    launcher.setAttribute('aria-expanded', String(open));
    launcher.replaceChildren(open ? closeIcon() : chatIcon());
  }

  function show() {
    if (!frame) {
      frame = document.createElement('iframe');
      frame.title = 'Chat';
      frame.src = chatFrameUrl(options);
      panel.append(frame);
    }
    open = true;
    render();
    frame.focus();
  }

  function hide() {
    if (!open) return;
    open = false;
    render();
    launcher.focus();
  }

  launcher.addEventListener('click', () => (open ? hide() : show()));
  // Escape while the focus is on the host page or the launcher; inside the frame the chat page has it.
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && open) hide();
  });
  // The chat page's close button, from our own frame only: another origin's message is ignored.
  window.addEventListener('message', (event) => {
    if (event.origin !== options.origin || !frame || event.source !== frame.contentWindow) return;
    const data = event.data as { type?: unknown } | null;
    if (data && typeof data === 'object' && data.type === CLOSE_MESSAGE_TYPE) hide();
  });

  render();
  document.body.append(host);
  return host;
}
