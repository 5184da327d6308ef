// The shared audit wording's namespace, registered by whichever screen loads it first (Activity, the admin audit log).
import { registerStrings } from '../../i18n/catalog';
import { en } from './en';
import { fa } from './fa';
import { ru } from './ru';
import { zh } from './zh';

export const AUDIT_WORDS = registerStrings('audit-words', { en, ru, zh, fa });
