// The account screen's strings in English: the source catalog every other language mirrors key for key.
export const en = {
  title: 'Account',
  userId: 'User ID',
  token: {
    title: 'API token',
    body: 'Your API token signs you in here and lets apps and bots use your account. Get a new one if the old one may have leaked.',
    refresh: 'Get a new API token',
    newTitle: 'Your new API token',
    warning:
      'Copy it now: it is shown only this once. The old token no longer works, so update every app or bot that used it.',
    copy: 'Copy token',
    copied: 'Copied',
    done: 'I have saved it',
    failed: 'The token could not be changed: {{message}}',
  },
  confirm: {
    title: 'Get a new API token?',
    body: 'The current token stops working at once in every app and bot that uses it, and other browsers are signed out. This browser stays signed in.',
    cancel: 'Cancel',
    refresh: 'Get a new token',
  },
  signOut: {
    title: 'Sign out',
    body: 'Ends the session in this browser. Your API token keeps working.',
    button: 'Sign out of this browser',
  },
};
