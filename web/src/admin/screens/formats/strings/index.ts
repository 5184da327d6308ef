// The formats screen's namespace: its catalogs in every language, registered when the screen loads.
import { registerStrings } from '../../../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const FORMATS = registerStrings('admin-formats', { en, ru, zh, fa });
