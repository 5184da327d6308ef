// The settings section's namespace (name, description, link settings, deleting) in every language.
import { registerStrings } from '../../../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const SUBSCRIPTION_SETTINGS = registerStrings('subscription-settings', { en, ru, zh, fa });
