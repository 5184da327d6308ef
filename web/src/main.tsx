// The dashboard's entry: providers (Mantine with direction and color scheme, TanStack Query, router) around the routes.
import '@mantine/core/styles.css';
import './i18n/setup';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { DirectionProvider, MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { setNonce } from 'get-nonce';
import { App } from './App';
import { isUnauthorized } from './api/client';
import { directionOf, initialLanguage } from './i18n/languages';
import { cssVariablesResolver, theme } from './shell/theme';

/** The per-answer nonce the server puts on <meta property="csp-nonce">, for the <style> tags Mantine injects. */
const styleNonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
// Dialogs lock page scrolling through react-remove-scroll, whose <style> tag takes its nonce from get-nonce.
setNonce(styleNonce);

const queryClient = new QueryClient({
  defaultOptions: {
    // A 401 means the session ended: retrying will not help; the shell sends the user to sign in.
    queries: { retry: (failures, error) => !isUnauthorized(error) && failures < 2, refetchOnWindowFocus: false },
  },
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <DirectionProvider initialDirection={directionOf(initialLanguage())} detectDirection={false}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="auto"
        colorSchemeManager={localStorageColorSchemeManager({ key: 'subweave.color-scheme' })}
        getStyleNonce={() => styleNonce}
      >
        <QueryClientProvider client={queryClient}>
          <BrowserRouter basename="/app">
            <App />
          </BrowserRouter>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  </StrictMode>,
);
