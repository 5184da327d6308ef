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
 * Mantine's default dimmed text (gray 6 on white) and field error text (red 6 on white, red 8 on dark) are under
 * 4.5:1; these shades pass in both schemes.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
