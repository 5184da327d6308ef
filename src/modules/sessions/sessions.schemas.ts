// Request and response schemas of browser sign-in (/api/v1/session) and of sign-in links (docs/api.md, docs/providers.md).
import { Type } from 'typebox';
import { DateTime, UserIdField } from '../../http/schemas.js';

const Secret = (description: string) => Type.String({ minLength: 1, maxLength: 256, description });

export const SignInBody = Type.Union(
  [
    Type.Object(
      { token: Secret("The user's API token.") },
      { additionalProperties: false, title: 'Sign in with the API token' },
    ),
    Type.Object(
      { code: Secret('The code of a sign-in link: what follows `#code=` in its URL.') },
      { additionalProperties: false, title: 'Sign in with a sign-in link' },
    ),
  ],
  { description: 'Exactly one of `token` or `code`.' },
);

export const SessionResponse = Type.Object(
  {
    user_id: UserIdField('The signed-in user.'),
    expires_at: DateTime('When the session ends unless used again; each use moves it to 7 days later.'),
  },
  { description: 'The session the cookie names.' },
);

export const SignInLinkResponse = Type.Object(
  {
    url: Type.String({
      description:
        'PUBLIC_BASE_URL/app/sign-in#code=<code>: give it to the user; the code is in the fragment, which browsers never send.',
    }),
    code: Type.String({
      description: 'The one-time code (32 random bytes, base64url); stored only as a SHA-256 hash.',
    }),
    expires_at: DateTime('The link works once, until this time (15 minutes after minting).'),
  },
  { description: 'A one-time sign-in link.' },
);
