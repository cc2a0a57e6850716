/*
 * Applies the colour theme before the first paint so that a dark-mode user never sees a
 * white flash. The build inlines it into index.html (vite-plugins/inline-head.ts), so it is
 * no render-blocking request; the server's Content-Security-Policy allows it by its sha256
 * and no other inline script. The dev server loads it as this file. The preference lives in localStorage 'theme' ('light' | 'dark' | 'system',
 * default 'system', which follows the operating system and keeps following it).
 */
/* global window, document */
(function () {
  var media = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  function preference() {
    try {
      var stored = window.localStorage.getItem('theme');
      return stored === 'light' || stored === 'dark' ? stored : 'system';
    } catch {
      return 'system';
    }
  }

  function apply() {
    var pref = preference();
    var dark = pref === 'dark' || (pref === 'system' && !!media && media.matches);
    document.documentElement.classList.toggle('dark', dark);
  }

  apply();
  if (media && media.addEventListener) media.addEventListener('change', apply);
  // Another tab changed the preference.
  window.addEventListener('storage', function (event) {
    if (event.key === 'theme') apply();
  });
})();
