// The admin connections screen's strings in English: the source catalog every other language mirrors.
export const en = {
  title: 'Connections',
  intro:
    'A connection lets a provider manage a user’s subscriptions. Approve or reject a pending request for the user; an approved connection is revoked by the user or the provider.',
  user: {
    label: 'User id',
    invalid: 'Enter a whole number above 0.',
    show: 'Show connections',
  },
  list: {
    title: 'Connections of user {{id}}',
    empty: 'This user has no connection.',
  },
  status: {
    pending: 'Waiting for approval',
    approved: 'Approved',
    revoked: 'Revoked',
  },
  actions: {
    approve: 'Approve',
    reject: 'Reject',
  },
  authorize: {
    title: 'Process a provider’s invite',
    body: 'A provider’s connection link ends with an invite. Paste it here to open a request for the user, as if they had opened the link.',
    user: 'User id',
    provider: 'Provider name',
    invite: 'Invite',
    required: 'Fill this in.',
    submit: 'Process invite',
    done: 'Connection of {{provider}} with user {{id}}: {{status}}',
  },
  errors: {
    user_not_found: 'No user has this id.',
    provider_not_found: 'No provider has this name.',
    connection_not_found: 'This connection no longer exists.',
    connection_not_pending: 'This request was already answered.',
    provider_limit_reached: 'The user has as many approved providers as allowed (MAX_PROVIDERS_PER_USER).',
    invalid_invite:
      'The invite is wrong or expired (invites last 7 days), or it was made for another user or provider.',
    validation_failed: 'The server refused the input. Check the user id and the provider name.',
    other: 'The request failed: {{message}}',
  },
};
