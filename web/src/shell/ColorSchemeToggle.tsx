// Light/dark switch; Mantine remembers the choice in localStorage (subweave.color-scheme).
import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SHELL } from './strings';

export function ColorSchemeToggle() {
  const { t } = useTranslation(SHELL);
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = t(next === 'dark' ? 'colorScheme.toDark' : 'colorScheme.toLight');
  return (
    <ActionIcon variant="default" size="lg" onClick={() => setColorScheme(next)} aria-label={label} title={label}>
      <span aria-hidden="true">{next === 'dark' ? '☾' : '☀'}</span>
    </ActionIcon>
  );
}
