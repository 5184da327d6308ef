// English strings of the server-rendered pages (link page, connect page); the other catalogs have exactly these keys.
// `{name}` marks a value filled in at render time; every catalog must keep the same placeholders.
export const en = {
  'lang.label': 'Language',
  'page.subscription': 'Subscription',
  'page.footer': 'Served by {service}. Keep this link private: anyone who has it can use the subscription.',

  'link.title': 'Subscription link',
  'link.copy': 'Copy',
  'link.copied': 'Copied to the clipboard.',
  'link.selected': 'Selected: press Ctrl+C (⌘C on a Mac) or long-press to copy.',
  'qr.title': 'QR code',
  'qr.caption': 'Scan it with the app on the device you want to connect.',

  'apps.title': 'Add to an app',
  'apps.hint':
    'Install one of these apps, then tap its button here: the app opens and adds this subscription by itself.',
  'apps.for': 'Apps for {platform}',
  'apps.other': 'Other platforms',
  'apps.add': 'Add to {app}',
  'apps.paid': 'Paid app.',
  'install.play': 'Install {app} from Google Play.',
  'install.appstore': 'Install {app} from the App Store.',
  'install.github': 'Download the installer for your system from the {app} releases page and install it.',
  'install.site': 'Download {app} from its official site and install it.',
  'install.then':
    'Then come back to this page and tap “Add to {app}”, or copy the link above and add it in the app as a new subscription.',
  'store.play': 'Google Play',
  'store.appstore': 'App Store',
  'store.github': 'GitHub releases',
  'store.site': 'Official site',
  'formats.hint':
    'Another app? Most apps read the link above. Clash and mihomo apps get their own format from the first link below, sing-box apps from the second.',
  'formats.mihomo': 'Clash / mihomo (YAML)',
  'formats.singbox': 'sing-box (JSON)',

  'facts.servers': 'Servers',
  'facts.updated': 'Last change',
  'facts.traffic': 'Traffic',
  'facts.used': '{used} used',
  'facts.used_of': '{used} of {total}',
  'facts.unlimited': 'no limit',
  'facts.expires': 'Expires',
  'facts.never': 'Never',
  'facts.expired': 'expired',
  'facts.in_days': 'in {days} days',
  'facts.in_day': 'in 1 day',
  'site.support': 'Support',
  'site.website': 'Website',

  'banner.expired.title': 'This subscription has expired',
  'banner.expired.text': 'Apps can no longer connect with it. Renew it to connect again.',
  'banner.quota.title': 'The traffic limit is reached',
  'banner.quota.text': 'Apps can no longer connect with it until the limit is raised or the period starts again.',
  'banner.support': 'Contact support',

  'notfound.title': 'Subscription not found',
  'notfound.text':
    'This link does not lead to a subscription on this server. It may have been mistyped, replaced by a new link, or deleted.',
  'notfound.hint': 'Ask whoever gave you the link for the current one.',

  'connect.title': 'Connect {provider}?',
  'connect.asks': '{provider} asks to manage proxy subscriptions on your behalf.',
  'connect.website': 'Website:',
  'connect.for_user': 'This link was made for user ID {user}.',
  'connect.fact.manage': 'If you approve, {provider} can create and change subscriptions in your account.',
  'connect.fact.keep': 'Subscriptions it creates stay yours, and keep working if you revoke access later.',
  'connect.fact.safe': 'Opening this page changes nothing: only your API token can approve.',
  'connect.token': 'Your API token',
  'connect.placeholder': 'Paste your token or a sign-in link',
  'connect.check': 'Check',
  'connect.token_hint':
    'The token is sent only to this server, in a request header, and is forgotten when you leave the page.',
  'connect.forget': 'Forget it now',
  'connect.where.title': 'Where do I get my token?',
  'connect.where.text':
    'The API token is the key to your account on this service. The bot or provider you signed up with gives it to you, or the administrator of this server does. Keep it secret, like a password.',
  'connect.signin':
    'Got a sign-in link instead (it contains /app/sign-in#code=)? Paste it above: it opens your dashboard and signs you in.',
  'connect.status': 'Status:',
  'connect.approve': 'Approve',
  'connect.reject': 'Reject',
  'connect.revoke': 'Revoke access',
  'connect.noscript':
    'This page needs JavaScript to talk to the server. Without it, call {approve} (or {reject}) with your {header} header.',
  'connect.unknown.title': 'Unknown provider',
  'connect.unknown.text': 'There is no provider named {provider} on this server.',
  'connect.unknown.hint': 'Check the link you were given, or ask the provider for a new one.',

  'connect.state.pending': 'Pending',
  'connect.state.pending.text':
    '{provider} is waiting for your answer. Approve to let it manage subscriptions for you, or reject the request.',
  'connect.state.approved': 'Approved',
  'connect.state.approved.text':
    '{provider} can create and change subscriptions in your account. Revoke access to end that at any time.',
  'connect.state.revoked': 'Revoked',
  'connect.state.revoked.text':
    '{provider} can no longer manage your subscriptions. To connect again, it has to send a new request.',
  'connect.state.none': 'No request',
  'connect.state.none.text': 'There is no connection between your account and {provider}.',
  'connect.error.missing_token': 'Paste your API token first.',
  'connect.error.invalid_token': 'This API token is not valid. Paste your own user API token (not a provider token).',
  'connect.error.account_disabled': 'Your account is disabled, so it cannot manage provider connections.',
  'connect.error.connection_not_found': 'There is no connection request from {provider} for this account.',
  'connect.error.connection_not_pending': 'This request is no longer pending, so it cannot be approved or rejected.',
  'connect.error.provider_limit_reached':
    'You already approved the maximum number of providers. Revoke one before approving another.',
  'connect.error.ip_banned': 'Requests from your network are temporarily blocked. Try again later.',
  'connect.error.rate_limited': 'Too many attempts. Wait a moment and try again.',
  'connect.error.status': 'The server answered with status {status}.',
  'connect.error.retry': '(about {seconds} s)',
  'connect.error.network': 'Could not reach the server. Check your connection and try again.',
  'connect.error.other_user': 'This link was made for user {expected}, but your token belongs to user {actual}.',
  'connect.done.approve': 'Approved. {provider} can now manage subscriptions for you.',
  'connect.done.reject': 'Request rejected. {provider} gets no access.',
  'connect.done.revoke': 'Access revoked. Subscriptions {provider} created stay yours.',
  'connect.forgotten': 'Your token was cleared from this page.',
  'connect.signing_in': 'Opening the sign-in link…',
} as const;
