// Schemas and route options shared by every admin route group: the signed-request security, common errors, user schemas.
import { Type } from 'typebox';
import { DateTime, OneOf, UserIdField } from '../../http/schemas.js';

export const ADMIN_TAG = 'Admin';

/** Both headers are required together: see the `adminSignature` and `adminTimestamp` security schemes. */
export const adminSecurity = [{ adminSignature: [], adminTimestamp: [] }];

/** Error statuses any admin route can answer: 401 bad signature, 403 ip_not_allowed, 503 admin_disabled. */
export const ADMIN_ERRORS = [401, 403, 503];

export const UserId = UserIdField('The user id (an integer > 0) chosen by whoever created the user.');

export const UserIdParams = Type.Object({ user_id: UserId });

export const CreateUserBody = Type.Object({ user_id: UserId }, { description: 'The id of the user to create.' });

export const UpdateUserBody = Type.Object(
  { is_active: Type.Boolean({ description: 'false disables the account: its token gets 403 and its links 404.' }) },
  { description: 'The new account state.' },
);

const userFields = {
  user_id: Type.Integer({ description: 'The user id.' }),
  user_hash: Type.String({
    description: 'UUID identifying the user; the owner_hash when creating a provider they own.',
  }),
  is_active: Type.Boolean({ description: 'false when the account is disabled.' }),
  created_at: DateTime('When the user was created.'),
};

export const UserResponse = Type.Object(userFields, { description: 'A user account (never its API token).' });

export const CreatedUserResponse = Type.Object(
  { ...userFields, api_token: Type.String({ description: 'The API token, shown only in this response.' }) },
  { description: 'The new user with its API token.' },
);

export const UserTokenResponse = Type.Object(
  {
    user_id: Type.Integer({ description: 'The user id.' }),
    api_token: Type.String({
      description: 'The new API token, shown only in this response; the old one no longer works.',
    }),
  },
  { description: 'A freshly issued user API token.' },
);

export const ListUsersQuery = Type.Object(
  {
    search: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,16}$', description: 'Digits: only users whose id starts with them.' }),
    ),
    status: Type.Optional(OneOf(['active', 'disabled'], { description: 'Only active or only disabled users.' })),
    cursor: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$', description: 'The `next_cursor` of the previous page.' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Users per page (1-200).' }),
    ),
  },
  { additionalProperties: false },
);

export const UserPage = Type.Object(
  {
    users: Type.Array(
      Type.Object(
        {
          ...userFields,
          subscription_count: Type.Integer({
            description: 'How many subscriptions the user has, managed ones included.',
          }),
        },
        { description: 'A user account with its number of subscriptions.' },
      ),
      { description: 'Newest first (by created_at, then user_id).' },
    ),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next (older) users; null on the last page.',
    }),
  },
  { description: 'A page of users.' },
);
