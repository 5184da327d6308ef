// The Mantine theme of the dashboard: one primary color and system fonts (no outside resources).
import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Darker shades of the primary color in light mode keep text on filled buttons above 4.5:1 contrast.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  // Dialogs and menus appear without animation for people who ask their system for less motion.
  respectReducedMotion: true,
});

/**
 * Mantine's default dimmed text (gray 6 on white) and error text (red 6; red 8 on dark) are under 4.5:1; these pass.
 * In light mode the active navigation link's text (indigo 9) stays above 4.5:1 under the pointer only on indigo 0
 * and 1, not on Mantine's hover shade (indigo 2, 4.1:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = ({ primaryColor }) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-primary-color-light': `var(--mantine-color-${primaryColor}-0)`,
    '--mantine-primary-color-light-hover': `var(--mantine-color-${primaryColor}-1)`,
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
