// The link section's namespace (link forms, QR code, rotation, what each app receives) in every language.
import { registerStrings } from '../../../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const SUBSCRIPTION_LINK = registerStrings('subscription-link', { en, ru, zh, fa });
