// The public link of a subscription and its per-format forms, as every Subscription object in the API carries them (docs/api.md).
import { Type, type Static } from 'typebox';

/** A format's path form `{link}/{format}`: the path form wins over `?format=` and every format rule. */
const inFormat = (format: string) =>
  Type.String({ description: `The link in \`${format}\` whatever the client's headers: \`{link}/${format}\`.` });

export const PublicLinks = Type.Object(
  {
    base64: inFormat('base64'),
    mihomo: inFormat('mihomo'),
    'sing-box': inFormat('sing-box'),
    xray: inFormat('xray'),
    sip008: inFormat('sip008'),
    page: Type.String({
      description:
        'The HTML page for people: the link itself, which a browser gets as the page (`Accept: text/html`, the ' +
        'built-in `browser` format rule).',
    }),
  },
  { description: 'The link in each form a client app or a person needs.' },
);
export type PublicLinks = Static<typeof PublicLinks>;

/** The Subscription fields built here. */
export const linkFields = {
  link: Type.String({
    description:
      'The public link, `{PUBLIC_BASE_URL}/sub/{token}`, that client apps poll; the format rules choose the format.',
  }),
  links: PublicLinks,
};

export function publicLinks(publicBaseUrl: string, token: string): { link: string; links: PublicLinks } {
  const link = `${publicBaseUrl}/sub/${token}`;
  return {
    link,
    links: {
      base64: `${link}/base64`,
      mihomo: `${link}/mihomo`,
      'sing-box': `${link}/sing-box`,
      xray: `${link}/xray`,
      sip008: `${link}/sip008`,
      page: link,
    },
  };
}
