// The branding screen's strings in English: the source catalog every other language mirrors key for key.
export const en = {
  intro:
    'How the subscription page, the connect page and this dashboard present the service. Empty fields use the defaults.',
  loadFailed: 'Could not load the branding: {{message}}',
  serviceName: 'Service name',
  serviceNameHint: 'Empty: subweave.',
  logo: 'Logo',
  logoHint: 'PNG, JPEG, WebP or SVG, at most 64 KiB.',
  logoPick: 'Choose a file',
  logoTooLarge: 'This file is larger than 64 KiB.',
  logoUnreadable: 'This file could not be read.',
  logoRemove: 'Remove the logo',
  accent: 'Accent colour',
  accentHint: 'The colour of buttons, as #rrggbb. Empty: the built-in colours.',
  supportUrl: 'Default support link',
  supportUrlHint: 'Shown on every subscription page whose subscription has no support link of its own.',
  sample: 'Sample',
  sampleButton: 'Add to the app',
  save: 'Save the branding',
  saved: 'The branding is saved. The pages show it within a second.',
  refused: 'Nothing was saved: {{message}}',
};
