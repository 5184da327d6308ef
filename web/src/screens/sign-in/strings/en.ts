// The sign-in screen's strings in English: the source catalog every other language mirrors key for key.
export const en = {
  title: 'Sign in',
  intro: 'Paste the API token you were given, or open the one-time sign-in link from your bot or administrator.',
  token: 'API token',
  tokenHint: 'A 43-character code. It is sent once to open a session and is not kept in the browser.',
  submit: 'Sign in',
  withLink: 'Signing you in with your sign-in link…',
  admin: 'Administrator of this service? Open the admin console.',
  errors: {
    empty: 'Paste your API token first.',
    badToken: 'This token is not valid. Check that you copied all of it, or ask for a new one.',
    badLink: 'This sign-in link is invalid, expired or already used. Ask for a new one or sign in with your token.',
    disabled: 'This account is disabled.',
    other: 'Signing in failed: {{message}}',
  },
};
