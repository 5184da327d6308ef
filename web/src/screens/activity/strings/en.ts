// The Activity screen's strings in English: the source catalog every other language mirrors key for key.
export const en = {
  title: 'Activity',
  intro: 'Changes to your account, connections and subscriptions, newest first.',
  empty: 'Nothing has happened yet.',
  loadMore: 'Show older entries',
  end: 'That is everything.',
  time: 'Time',
  actor: 'By',
  target: 'Target',
  changed: 'Changes',
  actors: {
    you: 'You',
    provider: 'Provider {{name}}',
    admin: 'Administrator',
    system: 'The service',
  },
  actions: {
    user: {
      create: 'Created the account',
      update: 'Changed the account',
      delete: 'Deleted the account',
      disable: 'Disabled the account',
      enable: 'Enabled the account',
      refresh_token: 'Issued a new API token',
      create_sign_in_link: 'Created a sign-in link',
    },
  },
  targets: {
    subscriptionNamed: 'Subscription “{{name}}”',
    subscription: 'Subscription',
    user: 'Your account',
    connection: 'Connection',
  },
  error: 'The activity could not be loaded: {{message}}',
};
