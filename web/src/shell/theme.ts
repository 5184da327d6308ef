// The Mantine theme of the dashboard: one primary color and system fonts (no outside resources).
import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Darker shades of the primary color in light mode keep text on filled buttons above 4.5:1 contrast.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
});
