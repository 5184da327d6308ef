// Every admin screen, in navigation order; each is a folder under web/src/admin/screens/ and a route /admin/<screen>.
export const ADMIN_SCREENS = [
  'stats',
  'users',
  'providers',
  'connections',
  'bans',
  'formats',
  'branding',
  'webhooks',
  'audit',
] as const;
export type AdminScreen = (typeof ADMIN_SCREENS)[number];
