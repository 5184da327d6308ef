// Language picker: switches i18next, the page direction (Persian is right to left) and remembers the choice.
import { NativeSelect, useDirection } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { directionOf, isLanguage, LANGUAGES, rememberLanguage } from '../i18n/languages';
import { applyDocumentLanguage } from '../i18n/setup';
import { SHELL } from './strings';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation(SHELL);
  const { setDirection } = useDirection();
  return (
    <NativeSelect
      aria-label={t('language')}
      size="xs"
      value={i18n.language}
      data={LANGUAGES.map((language) => ({ value: language.code, label: language.name }))}
      onChange={(event) => {
        const language = event.currentTarget.value;
        if (!isLanguage(language)) return;
        rememberLanguage(language);
        applyDocumentLanguage(language);
        setDirection(directionOf(language));
        void i18n.changeLanguage(language);
      }}
    />
  );
}
