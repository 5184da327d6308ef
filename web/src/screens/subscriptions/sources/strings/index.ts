// The sources editor's namespace: its catalogs in every language, registered when the subscription detail loads.
import { registerStrings } from '../../../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const SOURCES = registerStrings('sources', { en, ru, zh, fa });
