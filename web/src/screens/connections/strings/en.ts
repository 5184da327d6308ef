// The connections screen's strings in English: the source catalog every other language mirrors key for key.
export const en = {
  title: 'Connections',
  intro: 'Providers you allow can create and change subscriptions for you. You can take that right back at any time.',
  empty: {
    title: 'No providers',
    body: 'A provider is a bot or reseller that asked to manage your subscriptions for you. When one asks, its request appears here and does nothing until you approve it.',
  },
  status: {
    pending: 'Waiting for you',
    approved: 'Approved',
    revoked: 'Revoked',
  },
  pendingHint: 'This provider asks to manage your subscriptions.',
  approvedHint: 'This provider can create and change your subscriptions.',
  askedAt: 'Asked: {{date}}',
  approvedAt: 'Approved: {{date}}',
  approve: 'Approve',
  reject: 'Reject',
  revoke: 'Revoke',
  approveName: 'Approve {{name}}',
  rejectName: 'Reject {{name}}',
  revokeName: 'Revoke {{name}}',
  confirm: {
    title: 'Revoke {{name}}?',
    body: 'The provider can no longer manage your subscriptions. The subscriptions it created stay yours and their links keep working.',
    cancel: 'Cancel',
    revoke: 'Revoke',
  },
  errors: {
    connection_not_pending: 'This request was already answered. The list has been refreshed.',
    provider_limit_reached: 'You have approved as many providers as allowed. Revoke one first.',
    connection_not_found: 'This provider is no longer connected. The list has been refreshed.',
    other: 'Something went wrong: {{message}}',
  },
};
