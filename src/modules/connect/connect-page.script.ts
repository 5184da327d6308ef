// The connect page's browser script as plain ES2020 text (no build step): it keeps the token in memory and talks to /api/v1/me.
// It writes page text only through textContent, takes its words from the page's JSON strings block, and is allowed by its hash in the page's Content-Security-Policy.
export const CONNECT_PAGE_SCRIPT = `
(function () {
  var root = document.getElementById('connect');
  if (!root) return;
  var provider = root.getAttribute('data-provider') || '';
  var expectedUser = root.getAttribute('data-user-id') || '';
  var base = '/api/v1/me/providers/' + encodeURIComponent(provider);
  function el(id) { return document.getElementById(id); }
  var form = el('token-form'), input = el('token'), forget = el('forget');
  var stateBox = el('state'), badge = el('state-badge'), stateText = el('state-text'), notice = el('notice');
  var buttons = { check: el('check'), approve: el('approve'), reject: el('reject'), revoke: el('revoke') };
  var token = '';

  var strings = {};
  try { strings = JSON.parse(el('page-strings').textContent || '{}'); } catch (error) { strings = {}; }
  function text(key) { return strings['connect.' + key] || ''; }
  function fill(key, values) {
    return text(key).replace(/\\{(\\w+)\\}/g, function (whole, name) { return name in values ? values[name] : whole; });
  }
  var STATE_NAMES = ['pending', 'approved', 'revoked', 'none'];
  var MESSAGES = ['missing_token', 'invalid_token', 'account_disabled', 'connection_not_found',
    'connection_not_pending', 'provider_limit_reached', 'ip_banned', 'rate_limited'];
  /** What a sign-in link carries after its fragment marker; the dashboard on this origin consumes it. */
  var SIGN_IN = '/app/sign-in#code=';

  function say(kind, message) {
    notice.hidden = !message;
    notice.setAttribute('data-kind', kind);
    notice.textContent = message || '';
  }

  function show(status) {
    var known = STATE_NAMES.indexOf(status) >= 0;
    stateBox.hidden = !known;
    if (!known) return;
    badge.setAttribute('data-state', status);
    badge.textContent = text('state.' + status);
    stateText.textContent = text('state.' + status + '.text');
    buttons.approve.hidden = status !== 'pending';
    buttons.reject.hidden = status !== 'pending';
    buttons.revoke.hidden = status !== 'approved';
  }

  function busy(on) {
    Object.keys(buttons).forEach(function (key) { buttons[key].disabled = on; });
  }

  function explain(result) {
    var body = result.body || {};
    var message = MESSAGES.indexOf(body.error) >= 0 ? text('error.' + body.error)
      : body.message || fill('error.status', { status: String(result.status) });
    if (body.error === 'rate_limited' && result.retryAfter) {
      message += ' ' + fill('error.retry', { seconds: result.retryAfter });
    }
    return message;
  }

  function call(method, path) {
    return fetch(path, {
      method: method,
      headers: { 'API-Token': token, 'Accept': 'application/json' },
      credentials: 'omit',
      cache: 'no-store'
    }).then(function (response) {
      var result = { ok: response.ok, status: response.status, body: null, retryAfter: response.headers.get('retry-after') };
      if (response.status === 204) return result;
      return response.json().then(function (body) { result.body = body; return result; }, function () { return result; });
    });
  }

  function run(task) {
    if (!token) { say('error', text('error.missing_token')); input.focus(); return; }
    busy(true);
    task().catch(function () {
      say('error', text('error.network'));
    }).then(function () { busy(false); });
  }

  function check(quiet) {
    return call('GET', base).then(function (result) {
      if (result.ok) {
        show(result.body.status || 'none');
        if (!quiet) say('', '');
        return confirmAccount();
      }
      if (result.status === 404) { show('none'); say('info', explain(result)); return; }
      show('');
      say('error', explain(result));
    });
  }

  /** A link made for one user id (CONNECTION_LINK_TEMPLATE) warns when the token belongs to someone else. */
  function confirmAccount() {
    if (!expectedUser) return;
    return call('GET', '/api/v1/me').then(function (result) {
      if (result.ok && String(result.body.user_id) !== expectedUser) {
        say('error', fill('error.other_user', { expected: expectedUser, actual: String(result.body.user_id) }));
      }
    });
  }

  function decide(action, done) {
    return call('POST', base + '/' + action).then(function (result) {
      if (result.ok) {
        if (result.body) show(result.body.status || 'none');
        say('ok', done);
        return action === 'revoke' ? check(true) : undefined;
      }
      say('error', explain(result));
      if (result.status === 404 || result.status === 409) {
        var message = notice.textContent;
        return check(true).then(function () { say('error', message); });
      }
    });
  }

  /** A pasted sign-in link opens the dashboard on this origin with its code; nothing else is followed. */
  function signInCode(value) {
    var at = value.indexOf(SIGN_IN);
    if (at < 0) return '';
    var code = value.slice(at + SIGN_IN.length).split('&')[0];
    return /^[A-Za-z0-9._~-]+$/.test(code) ? code : '';
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var code = signInCode(input.value.trim());
    if (code) {
      say('info', text('signing_in'));
      location.assign(location.origin + SIGN_IN + code);
      return;
    }
    token = input.value.trim();
    run(function () { return check(false); });
  });
  input.addEventListener('input', function () {
    if (input.value.trim() !== token) { token = ''; show(''); say('', ''); }
  });
  forget.addEventListener('click', function () {
    token = '';
    input.value = '';
    show('');
    say('info', text('forgotten'));
    input.focus();
  });
  buttons.approve.addEventListener('click', function () {
    run(function () { return decide('approve', text('done.approve')); });
  });
  buttons.reject.addEventListener('click', function () {
    run(function () { return decide('reject', text('done.reject')); });
  });
  buttons.revoke.addEventListener('click', function () {
    run(function () { return decide('revoke', text('done.revoke')); });
  });
  root.classList.add('ready');
})();
`;
