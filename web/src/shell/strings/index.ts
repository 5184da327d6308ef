// The shell's namespace: its catalogs in every language, registered once.
import { registerStrings } from '../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const SHELL = registerStrings('shell', { en, ru, zh, fa });
