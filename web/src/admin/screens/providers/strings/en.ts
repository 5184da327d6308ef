// The admin providers screen's strings in English: the source catalog every other language mirrors.
export const en = {
  title: 'Providers',
  intro:
    'A provider (a bot or a reseller) manages subscriptions for users who approve it. Each provider is owned by one user.',
  create: {
    title: 'Create a provider',
    owner: 'Owner’s user id',
    ownerHint: 'The user who owns the provider; one provider per user.',
    ownerInvalid: 'Enter a whole number above 0.',
    name: 'Name',
    nameHint: '4 to 16 lower-case letters and digits, single hyphens between them.',
    nameInvalid: 'Use 4 to 16 lower-case letters and digits, with single hyphens between them.',
    url: 'Home page (optional)',
    urlHint: 'Shown to users when the provider asks to connect.',
    urlInvalid: 'Enter an {{http}} or {{https}} address, or leave it empty.',
    submit: 'Create provider',
  },
  list: {
    active: 'Active',
    disabled: 'Disabled',
    owner: 'Owner: user {{id}}',
    created: 'Created: {{time}}',
    empty: 'No provider yet.',
  },
  actions: {
    disable: 'Disable',
    enable: 'Enable',
    token: 'New API token',
    delete: 'Delete',
  },
  shown: {
    title: 'API token of provider {{name}}',
    warning: 'Shown only now: the server keeps only a hash. Copy it into the provider’s configuration.',
    copy: 'Copy',
    copied: 'Copied',
    done: 'Done',
  },
  confirm: {
    deleteTitle: 'Delete provider {{name}}?',
    deleteBody:
      'Its connections and every subscription it manages are deleted too; the links of those subscriptions stop working at once.',
    delete: 'Delete',
    tokenTitle: 'New API token for provider {{name}}?',
    tokenBody: 'The current token stops working at once: the provider needs the new one.',
    token: 'Issue a new token',
    cancel: 'Cancel',
  },
  errors: {
    name_exists: 'Another provider has this name.',
    provider_exists: 'This user owns a provider already.',
    user_not_found: 'No user has this id.',
    provider_not_found: 'This provider no longer exists.',
    validation_failed: 'The server refused the input. Check the name and the address.',
    other: 'The request failed: {{message}}',
  },
};
