// The link page's browser script as plain ES2020 text (no build step): copy buttons, the visitor's platform, local times.
// It writes page text only through textContent, and is allowed by its hash in the page's Content-Security-Policy.
export const LINK_PAGE_SCRIPT = `
'use strict';
(function () {
  function say(status, text) { status.textContent = text; }

  /** Without the clipboard API (plain http, old browsers) the link is selected for the user to copy. */
  function selectInstead(input, status) {
    input.focus();
    input.setSelectionRange(0, input.value.length);
    var copied = false;
    try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
    say(status, copied ? 'Copied.' : 'Selected: press Ctrl+C (\\u2318C on a Mac) or long-press to copy.');
  }

  Array.prototype.forEach.call(document.querySelectorAll('button[data-copy]'), function (button) {
    var id = button.getAttribute('data-copy');
    var input = document.getElementById(id);
    var status = document.getElementById(id + '-status');
    if (!input || !status) return;
    button.addEventListener('click', function () {
      var clipboard = navigator.clipboard;
      if (!clipboard || typeof clipboard.writeText !== 'function') { selectInstead(input, status); return; }
      clipboard.writeText(input.value).then(function () {
        say(status, 'Copied to the clipboard.');
      }, function () { selectInstead(input, status); });
    });
  });

  var ua = navigator.userAgent;
  var platform = /Android/i.test(ua) ? 'android'
    : /iPhone|iPad|iPod/.test(ua) ? 'ios'
    : /Windows/.test(ua) ? 'windows'
    : /Macintosh/.test(ua) ? (navigator.maxTouchPoints > 1 ? 'ios' : 'macos')
    : /Linux|X11|CrOS/.test(ua) ? 'linux' : '';
  var mine = platform && document.querySelector('details[data-platform="' + platform + '"]');
  if (mine) mine.open = true;

  Array.prototype.forEach.call(document.querySelectorAll('time[data-local]'), function (time) {
    var date = new Date(time.getAttribute('datetime') || '');
    if (isNaN(date.getTime())) return;
    time.textContent = time.getAttribute('data-local') === 'date'
      ? date.toLocaleDateString(undefined, { dateStyle: 'medium' })
      : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    var note = document.getElementById(time.id + '-note');
    if (!note) return;
    var days = Math.ceil((date.getTime() - Date.now()) / 86400000);
    say(note, days <= 0 ? 'expired' : days === 1 ? 'in 1 day' : 'in ' + days + ' days');
  });
  document.documentElement.classList.add('ready');
})();
`;
