// The admin console's shared strings in English (gate and navigation): the source catalog every other language mirrors.
export const en = {
  title: 'Admin console',
  leave: 'Forget the admin secret',
  backToApp: 'Back to the user area',
  nav: {
    label: 'Admin',
    stats: 'Statistics',
    users: 'Users',
    providers: 'Providers',
    connections: 'Connections',
    bans: 'Bans and whitelist',
    formats: 'Formats and templates',
    branding: 'Branding',
    webhooks: 'Webhooks',
    audit: 'Audit log',
  },
  gate: {
    title: 'Admin console',
    body: 'Enter the ADMIN_SECRET of this service. It stays in this browser tab: each request is signed here and the secret itself is never sent.',
    secret: 'Admin secret',
    submit: 'Open the console',
    required: 'Enter the admin secret.',
    insecureTitle: 'This page needs HTTPS',
    insecureBody:
      'Browsers sign requests (WebCrypto) only on {{https}} or on localhost. Open the console through HTTPS or an SSH tunnel to localhost.',
    errors: {
      invalid_signature: 'That is not the admin secret of this service.',
      ip_not_allowed: 'Your address is not in ADMIN_ALLOWED_IPS, so the admin API refuses it.',
      admin_disabled: 'The admin API is off: ADMIN_SECRET is not set on the server.',
      signature_expired:
        'This computer’s clock differs from the server’s by more than a minute. Correct the clock and try again.',
      other: 'The check failed: {{message}}',
    },
  },
  placeholder: 'This screen is not built yet.',
};
