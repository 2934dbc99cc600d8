// The embeddable chat widget, built alone into dist/widget.js (vite.widget.config.ts) as a classic script:
//   <script src="https://crewline.example/widget.js" data-app="<slug>" async></script>
// The chat's origin is the script's own (`data-origin` may say another); `data-accent` colours the bubble.
import { mountChatWidget, widgetOptionsOf } from './chat-widget';

// Read while the script runs: document.currentScript is null once it has (an async script's included).
const script = document.currentScript;
const options = script instanceof HTMLScriptElement ? widgetOptionsOf(script, location.href) : undefined;

function start() {
  // Once per app, should the page carry its tag twice.
  if (!options || document.querySelector(`[data-crewline-chat="${CSS.escape(options.slug)}"]`)) return;
  mountChatWidget(options);
}

if (!options) console.warn('Crewline chat widget: its script tag needs data-app="<slug>".');
else if (document.body) start();
else document.addEventListener('DOMContentLoaded', start);
