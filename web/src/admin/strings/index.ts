// The admin console's shared namespace, registered when the admin gate loads.
import { registerStrings } from '../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const ADMIN = registerStrings('admin', { en, ru, zh, fa });
