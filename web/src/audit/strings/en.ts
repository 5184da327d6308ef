// Audit log wording shared by the user's Activity and the admin's audit log, in English: the source catalog every other language mirrors.
export const en = {
  actions: {
    subscription: {
      create: 'Created a subscription',
      update: 'Changed a subscription',
      delete: 'Deleted a subscription',
      rotate: 'Replaced a subscription link',
    },
    connection: {
      request: 'Asked to connect',
      approve: 'Approved a connection',
      reject: 'Rejected a connection',
      revoke: 'Revoked a connection',
    },
  },
  summary: {
    fields: 'Fields: {{value}}',
    sourcesAdded: 'Sources added: {{value}}',
    sourcesRemoved: 'Sources removed: {{value}}',
    sourcesReplaced: 'Sources replaced: {{value}}',
    status: 'Status: {{value}}',
    provider: 'Provider: {{value}}',
  },
};
