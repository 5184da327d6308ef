// The branding screen's namespace: its catalogs in every language, registered when the screen loads.
import { registerStrings } from '../../../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const BRANDING = registerStrings('admin-branding', { en, ru, zh, fa });
