// The shell's strings in English: the source catalog every other language mirrors key for key.
export const en = {
  appName: 'subweave',
  skipToContent: 'Skip to content',
  nav: {
    label: 'Main',
    subscriptions: 'Subscriptions',
    connections: 'Connections',
    activity: 'Activity',
    account: 'Account',
    admin: 'Admin console',
    toggle: 'Open or close the menu',
  },
  colorScheme: {
    toDark: 'Switch to dark theme',
    toLight: 'Switch to light theme',
  },
  language: 'Language',
  signOut: 'Sign out',
  loading: 'Loading…',
  retry: 'Try again',
  error: 'Something went wrong: {{message}}',
  offline: 'The server could not be reached. Check your connection.',
  notFound: {
    title: 'Page not found',
    body: 'There is nothing at this address.',
    back: 'Back to subscriptions',
  },
};
