// The connect page's browser script as plain ES2020 text (no build step): it keeps the token in memory and talks to /api/v1/me.
// It writes page text only through textContent, and is allowed by its hash in the page's Content-Security-Policy.
export const CONNECT_PAGE_SCRIPT = `
'use strict';
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

  var STATES = {
    pending: ['Pending', provider + ' is waiting for your answer. Approve to let it manage subscriptions for you, or reject the request.'],
    approved: ['Approved', provider + ' can create and change subscriptions in your account. Revoke access to end that at any time.'],
    revoked: ['Revoked', provider + ' can no longer manage your subscriptions. To connect again, it has to send a new request.'],
    none: ['No request', 'There is no connection between your account and ' + provider + '.']
  };
  var MESSAGES = {
    missing_token: 'Paste your API token first.',
    invalid_token: 'This API token is not valid. Paste your own user API token (not a provider token).',
    account_disabled: 'Your account is disabled, so it cannot manage provider connections.',
    connection_not_found: 'There is no connection request from ' + provider + ' for this account.',
    connection_not_pending: 'This request is no longer pending, so it cannot be approved or rejected.',
    provider_limit_reached: 'You already approved the maximum number of providers. Revoke one before approving another.',
    ip_banned: 'Requests from your network are temporarily blocked. Try again later.',
    rate_limited: 'Too many attempts. Wait a moment and try again.'
  };

  function say(kind, text) {
    notice.hidden = !text;
    notice.setAttribute('data-kind', kind);
    notice.textContent = text || '';
  }

  function show(status) {
    var known = STATES[status];
    stateBox.hidden = !known;
    if (!known) return;
    badge.setAttribute('data-state', status);
    badge.textContent = known[0];
    stateText.textContent = known[1];
    buttons.approve.hidden = status !== 'pending';
    buttons.reject.hidden = status !== 'pending';
    buttons.revoke.hidden = status !== 'approved';
  }

  function busy(on) {
    Object.keys(buttons).forEach(function (key) { buttons[key].disabled = on; });
  }

  function explain(result) {
    var body = result.body || {};
    var text = MESSAGES[body.error] || body.message || ('The server answered with status ' + result.status + '.');
    if (body.error === 'rate_limited' && result.retryAfter) text += ' (about ' + result.retryAfter + ' s)';
    return text;
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
    if (!token) { say('error', MESSAGES.missing_token); input.focus(); return; }
    busy(true);
    task().catch(function () {
      say('error', 'Could not reach the server. Check your connection and try again.');
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
        say('error', 'This link was made for user ' + expectedUser + ', but your token belongs to user ' + result.body.user_id + '.');
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

  form.addEventListener('submit', function (event) {
    event.preventDefault();
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
    say('info', 'Your token was cleared from this page.');
    input.focus();
  });
  buttons.approve.addEventListener('click', function () {
    run(function () { return decide('approve', 'Approved. ' + provider + ' can now manage subscriptions for you.'); });
  });
  buttons.reject.addEventListener('click', function () {
    run(function () { return decide('reject', 'Request rejected. ' + provider + ' gets no access.'); });
  });
  buttons.revoke.addEventListener('click', function () {
    run(function () { return decide('revoke', 'Access revoked. Subscriptions ' + provider + ' created stay yours.'); });
  });
  root.classList.add('ready');
})();
`;
