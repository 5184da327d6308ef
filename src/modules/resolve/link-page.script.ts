// The link page's browser script as plain ES2020 text (no build step): copy buttons, the visitor's platform, local times.
// It writes page text only through textContent, takes its words from the page's JSON strings block, and is allowed by
// its hash in the page's Content-Security-Policy.
export const LINK_PAGE_SCRIPT = `
(function () {
  var strings = {};
  try { strings = JSON.parse(document.getElementById('page-strings').textContent || '{}'); } catch (error) { strings = {}; }
  var locale = document.documentElement.lang || undefined;
  function say(status, text) { status.textContent = text; }

  /** Without the clipboard API (plain http, old browsers) the link is selected for the user to copy. */
  function selectInstead(input, status) {
    input.focus();
    input.setSelectionRange(0, input.value.length);
    var copied = false;
    try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
    say(status, copied ? strings.copied : strings.selected);
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
        say(status, strings.copied);
      }, function () { selectInstead(input, status); });
    });
  });

  /** When the server could not tell the platform, the browser can: its apps open first, and on a phone before the QR. */
  var main = document.getElementById('page');
  if (main && !main.getAttribute('data-platform')) {
    var ua = navigator.userAgent;
    var platform = /Android/i.test(ua) ? 'android'
      : /iPhone|iPad|iPod/.test(ua) ? 'ios'
      : /Windows/.test(ua) ? 'windows'
      : /Macintosh/.test(ua) ? (navigator.maxTouchPoints > 1 ? 'ios' : 'macos')
      : /Linux|X11|CrOS/.test(ua) ? 'linux' : '';
    main.setAttribute('data-platform', platform);
    var mine = platform && document.querySelector('details[data-platform="' + platform + '"]');
    if (mine) {
      mine.open = true;
      mine.parentNode.insertBefore(mine, mine.parentNode.querySelector('details'));
    }
    var apps = document.getElementById('apps-card');
    var link = document.getElementById('link-card');
    if ((platform === 'android' || platform === 'ios') && apps && link) main.insertBefore(apps, link);
  }

  var banner = document.getElementById('banner');
  var expiresAt = banner && Number(banner.getAttribute('data-expires-at'));
  if (expiresAt && expiresAt * 1000 <= Date.now()) banner.hidden = false;

  Array.prototype.forEach.call(document.querySelectorAll('time[data-local]'), function (time) {
    var date = new Date(time.getAttribute('datetime') || '');
    if (isNaN(date.getTime())) return;
    time.textContent = time.getAttribute('data-local') === 'date'
      ? date.toLocaleDateString(locale, { dateStyle: 'medium' })
      : date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
    var note = document.getElementById(time.id + '-note');
    if (!note) return;
    var days = Math.ceil((date.getTime() - Date.now()) / 86400000);
    say(note, days <= 0 ? strings.expired : days === 1 ? strings.inDay : String(strings.inDays).replace('{days}', days));
  });
  document.documentElement.classList.add('ready');
})();
`;
