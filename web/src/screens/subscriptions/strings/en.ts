// The subscription screens' strings in English: the source catalog every other language mirrors key for key.
export const en = {
  list: {
    title: 'Subscriptions',
    create: 'New subscription',
    empty: 'You have no subscriptions yet. Create one to get a link for your apps.',
    servers: 'Servers: {{count}}',
    sources: 'Sources: {{count}}',
    failing: 'Sources failing: {{count}}',
    held: 'Updates to confirm: {{count}}',
    managedBy: 'Managed by {{provider}}',
    updated: 'Updated {{date}}',
    open: 'Open {{name}}',
  },
  create: {
    title: 'New subscription',
    name: 'Name',
    nameHint: 'Up to 64 characters, unique among your subscriptions.',
    description: 'Description',
    sources: 'Sources',
    sourcesHint:
      'One per line: a server link ({{schemes}}), a subscription URL, or a link to another of your subscriptions. Optional.',
    submit: 'Create',
    close: 'Close',
    cancel: 'Cancel',
    nameRequired: 'Enter a name.',
  },
  detail: {
    back: 'All subscriptions',
    link: 'Subscription link',
    linkHint: 'Add this link to your app (Hiddify, v2rayNG, Clash, sing-box…) as a subscription.',
    copy: 'Copy link',
    copied: 'Copied',
  },
  history: {
    title: 'Recent requests',
    refresh: 'Refresh',
    empty: 'No app has fetched this link yet.',
    time: 'Time',
    format: 'Format',
    rule: 'Rule',
    status: 'Status',
    userAgent: 'App (User-Agent)',
    client: 'Network',
    servers: 'Servers',
  },
  errors: {
    name_exists: 'You already have a subscription with this name.',
    subscription_limit_reached: 'You have reached the maximum number of subscriptions.',
    subscription_not_found: 'This subscription does not exist or was deleted.',
    managed_by_provider:
      'A provider manages this subscription: only it can change it while your connection to it is approved.',
    invalid_source:
      'Not a server link, a subscription URL or a link of this service (or that subscription does not exist): {{data}}',
    invalid_url: 'This URL cannot be used (it has a password, a private address or a bad form): {{data}}',
    other: '{{message}}',
  },
};
