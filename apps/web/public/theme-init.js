// Runs before the app bundle so the first paint already uses the stored theme (no flash).
// Keep in sync with src/app/theme.tsx (storage key and class names).
(function () {
  var root = document.documentElement;
  var dark = false;
  try {
    var stored = window.localStorage.getItem('crewline-ui-theme');
    if (stored === 'dark') dark = true;
    else if (stored !== 'light') dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
  } catch {
    dark = false;
  }
  root.classList.remove('light', 'dark');
  root.classList.add(dark ? 'dark' : 'light');
})();
