import '@mantine/core/styles.css';
import './theme.css';
import { Center, createTheme, Loader, MantineProvider, Modal } from '@mantine/core';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { App } from './App';
import { SessionProvider } from './session/session';

// System fonts only: nothing is fetched from another site.
// Shade 7 keeps white text on filled buttons above the 4.5:1 contrast ratio.
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 8 },
  // A person who asked their system for less motion gets dialogs, menus and drawers without it.
  respectReducedMotion: true,
  components: {
    // Every dialog's close button says what it does to a screen reader.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
  },
});

// A share link's page, for visitors without an account: loaded on its own, outside the session, so
// opening a link never asks the server who is signed in nor shows any of the console.
const LinkPage = lazy(() => import('./link-page/LinkPage').then((m) => ({ default: m.LinkPage })));

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <BrowserRouter>
        <Routes>
          <Route path="/f/:code" element={<Suspense fallback={<Center py="xl"><Loader size="sm" aria-label="Loading" /></Center>}><LinkPage /></Suspense>} />
          <Route path="*" element={<SessionProvider><App /></SessionProvider>} />
        </Routes>
      </BrowserRouter>
    </MantineProvider>
  </StrictMode>,
);
