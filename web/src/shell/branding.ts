// The service's branding (GET /api/v1/branding, public): the header shows its name and logo, filled buttons its accent.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

/** The query key the admin branding screen invalidates after a save, so the header follows at once. */
export const BRANDING_KEY = ['branding'] as const;

export function useBranding() {
  return useQuery({
    queryKey: BRANDING_KEY,
    queryFn: () => unwrap(api.GET('/api/v1/branding')),
    staleTime: 5 * 60_000,
  });
}

/** Relative luminance (WCAG 2) of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const c = parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** True when near-black text contrasts more with `hex` than white does (the link page's rule, docs/admin-api.md). */
export function wantsDarkText(hex: string): boolean {
  const l = luminance(hex);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05);
}

/** Puts the accent on Mantine's filled primary colour; `shell.css` gives light accents dark button text. */
export function useAccentColor(accent: string | null | undefined): void {
  useEffect(() => {
    const root = document.documentElement;
    if (!accent) return;
    root.style.setProperty('--mantine-primary-color-filled', accent);
    root.style.setProperty('--mantine-primary-color-filled-hover', `color-mix(in srgb, ${accent} 85%, black)`);
    root.dataset['accentText'] = wantsDarkText(accent) ? 'dark' : 'light';
    return () => {
      root.style.removeProperty('--mantine-primary-color-filled');
      root.style.removeProperty('--mantine-primary-color-filled-hover');
      delete root.dataset['accentText'];
    };
  }, [accent]);
}
