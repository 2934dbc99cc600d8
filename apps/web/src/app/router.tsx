// The app's entry route. A visit that starts signed out (no stored token) on `/` gets the landing
// page alone: it shows no server data, so neither TanStack Query, the API client nor the session check
// is downloaded before it is usable. Every other visit loads the rest of the app (app-routes.tsx: the
// providers, the session check and the route table), which then loads its page; once loaded it stays,
// so signing out on `/` shows the landing page inside it, with the toast that may say why. Both are
// lazy, so the entry holds only React, the router and this file. A chat app's page (`/chat/<slug>`) is
// routed alone too, signed in or out: a visitor of a chat app downloads that page and nothing of the app.
import { lazy, Suspense, useState } from 'react';
import { createBrowserRouter, ScrollRestoration, useLocation } from 'react-router';

import { FullPageSpinner } from '@/components/full-page-spinner';
import { useAuthToken } from '@/lib/auth-token';

import { RouteErrorPage } from './route-error';

const LandingPage = lazy(() =>
  import('@/features/landing/pages/landing-page').then((module) => ({ default: module.LandingPage })),
);
const ChatPage = lazy(() =>
  import('@/features/chat/pages/chat-page').then((module) => ({ default: module.ChatPage })),
);
const AppRoutes = lazy(() => import('./app-routes').then((module) => ({ default: module.AppRoutes })));

function RootRoutes() {
  const signedOut = !useAuthToken();
  const { pathname } = useLocation();
  // `/chat/<slug>`: the slug as the address has it (the page decodes it).
  const chatSlug = /^\/chat\/([^/]+)\/?$/.exec(pathname)?.[1] ?? null;
  const [appInUse, setAppInUse] = useState(false);
  const landingAlone = signedOut && pathname === '/' && !appInUse;
  if (chatSlug === null && !landingAlone && !appInUse) setAppInUse(true);

  return (
    <>
      <ScrollRestoration />
      <Suspense fallback={<FullPageSpinner fullScreen />}>
        {chatSlug !== null ? (
          <ChatPage key={chatSlug} slug={chatSlug} />
        ) : landingAlone ? (
          <LandingPage />
        ) : (
          <AppRoutes />
        )}
      </Suspense>
    </>
  );
}

export const router = createBrowserRouter([
  {
    path: '*',
    element: <RootRoutes />,
    errorElement: <RouteErrorPage />,
  },
]);
