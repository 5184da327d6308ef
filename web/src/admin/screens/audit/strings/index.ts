// The admin audit log's namespace, registered when its chunk loads.
import { registerStrings } from '../../../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const ADMIN_AUDIT = registerStrings('admin-audit', { en, ru, zh, fa });
