// The transforms editor's namespace: its catalogs in every language, registered when the subscription screen loads.
import { registerStrings } from '../../../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const TRANSFORMS = registerStrings('transforms', { en, ru, zh, fa });
