// The admin bans and whitelist screen's namespace, registered when its chunk loads.
import { registerStrings } from '../../../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const ADMIN_BANS = registerStrings('admin-bans', { en, ru, zh, fa });
