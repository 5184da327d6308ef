// The subscription screens' strings in English: the source catalog every other language mirrors key for key.
export const en = {
  list: {
    title: 'Subscriptions',
    create: 'New subscription',
    empty: 'You have no subscriptions yet. Create one to get a link for your apps.',
    servers: 'Servers: {{count}}',
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
      'One per line: a server link (vless://, vmess://, trojan://, ss://…), a subscription URL, or a link to another of your subscriptions. Optional.',
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
    sources: 'Sources',
    noSources: 'This subscription has no sources yet.',
    hidden: 'Hidden',
    failing: 'Last update failed',
    types: {
      config: 'Server',
      external_url: 'Subscription URL',
      internal_token: 'Your subscription',
    },
  },
  errors: {
    name_exists: 'You already have a subscription with this name.',
    subscription_limit_reached: 'You have reached the maximum number of subscriptions.',
    subscription_not_found: 'This subscription does not exist or was deleted.',
    other: '{{message}}',
  },
};
