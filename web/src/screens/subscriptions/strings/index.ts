// The subscription screens' namespace: its catalogs in every language, registered when a subscription screen loads.
import { registerStrings } from '../../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const SUBSCRIPTIONS = registerStrings('subscriptions', { en, ru, zh, fa });
