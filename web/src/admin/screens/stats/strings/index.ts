// The admin statistics screen's namespace, registered when its chunk loads.
import { registerStrings } from '../../../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const ADMIN_STATS = registerStrings('admin-stats', { en, ru, zh, fa });
