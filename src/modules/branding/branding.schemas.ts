// TypeBox schemas of the branding endpoints (docs/admin-api.md): the admin's body and answer, and the public view.
import { Type } from 'typebox';
import { ACCENT_PATTERN, LOGO_MAX_BYTES, SERVICE_NAME_PATTERN } from './branding.js';

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** The longest base64 text of a logo at the size limit, with the longest data URL prefix. */
const LOGO_MAX_LENGTH = 'data:image/svg+xml;base64,'.length + Math.ceil(LOGO_MAX_BYTES / 3) * 4;

const serviceName = nullable(
  Type.String({ minLength: 1, maxLength: 64, pattern: SERVICE_NAME_PATTERN }),
  'The name the pages show instead of "subweave" (1-64 characters, no control characters).',
);
const logo = nullable(
  Type.String({ maxLength: LOGO_MAX_LENGTH, pattern: '^data:image/(png|jpeg|webp|svg\\+xml);base64,' }),
  `The logo as a \`data:image/png|jpeg|webp|svg+xml;base64,...\` URL of at most ${LOGO_MAX_BYTES / 1024} KiB ` +
    'once decoded; the bytes must be of the declared type. The pages show it only as an image, never inline.',
);
const accentColor = nullable(
  Type.String({ pattern: ACCENT_PATTERN }),
  'The colour of buttons and links on the pages, `#rrggbb`.',
);
const supportUrl = nullable(
  Type.String({ maxLength: 2048, pattern: '^[hH][tT][tT][pP][sS]?://' }),
  "The support link a subscription's page shows when the subscription has no `support_url` of its own (http or https).",
);

export const BrandingBody = Type.Object(
  {
    service_name: Type.Optional(serviceName),
    logo: Type.Optional(logo),
    accent_color: Type.Optional(accentColor),
    support_url: Type.Optional(supportUrl),
  },
  {
    additionalProperties: false,
    description: 'The fields to change: a field left out keeps its value, `null` clears it.',
  },
);

export const BrandingResponse = Type.Object(
  { service_name: serviceName, logo, accent_color: accentColor, support_url: supportUrl },
  { description: 'The branding the link page, the connect page and the dashboard show; null fields use defaults.' },
);

export const PublicBrandingResponse = Type.Object(
  { service_name: serviceName, logo, accent_color: accentColor },
  { description: 'What the dashboard needs to look like the service: no authentication, nothing secret.' },
);
