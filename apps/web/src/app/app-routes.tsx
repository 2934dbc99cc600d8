// Every screen but the landing page of a visit that starts signed out (router.tsx): the server-data
// providers (TanStack Query, the session sync between tabs, the toasts), the session check and the
// route table (docs/product-rules.md). Signed-out visitors get /, /login, /signup, /invite/:token,
// /approvals/email/:token (an emailed approval link), the documentation under /docs and a redirect to
// /login for anything else; signed-in users get the app (and /invite/:token, /approvals/email/:token
// and /docs, outside the shell). The entry loads this module lazily, and every page
// in it is lazy too, so each screen only downloads its own code.
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';

import { FullPageSpinner } from '@/components/full-page-spinner';
import { signInFirstHref } from '@/lib/invite-links';
import { useAuth } from '@/lib/session';

import { AppProviders } from './providers';

function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const AppShell = page(() => import('./shell'), 'AppShell');
const LandingPage = page(() => import('@/features/landing/pages/landing-page'), 'LandingPage');
const LoginPage = page(() => import('@/features/auth/pages/login-page'), 'LoginPage');
const SignupPage = page(() => import('@/features/auth/pages/signup-page'), 'SignupPage');
const ForgotPasswordPage = page(
  () => import('@/features/auth/pages/forgot-password-page'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = page(
  () => import('@/features/auth/pages/reset-password-page'),
  'ResetPasswordPage',
);
const VerifyEmailPage = page(() => import('@/features/auth/pages/verify-email-page'), 'VerifyEmailPage');
const DashboardPage = page(() => import('@/features/dashboard/pages/dashboard-page'), 'DashboardPage');
const SubscribePage = page(() => import('@/features/billing/pages/subscribe-page'), 'SubscribePage');
const WorkflowsPage = page(() => import('@/features/workflows/pages/workflows-page'), 'WorkflowsPage');
const WorkflowNewPage = page(
  () => import('@/features/workflows/pages/workflow-builder-page'),
  'WorkflowNewPage',
);
const WorkflowEditPage = page(
  () => import('@/features/workflows/pages/workflow-builder-page'),
  'WorkflowEditPage',
);
const AgentsPage = page(() => import('@/features/agents/pages/agents-page'), 'AgentsPage');
const AgentEditPage = page(() => import('@/features/agents/pages/agent-edit-page'), 'AgentEditPage');
const ToolsPage = page(() => import('@/features/tools/pages/tools-page'), 'ToolsPage');
const KnowledgePage = page(() => import('@/features/knowledge/pages/knowledge-page'), 'KnowledgePage');
const KnowledgeBasePage = page(
  () => import('@/features/knowledge/pages/knowledge-base-page'),
  'KnowledgeBasePage',
);
// The Evaluations screens, routed under /evaluations by their own lazy module (its comment says why).
const EvaluationRoutes = page(() => import('@/features/evaluations/evaluation-routes'), 'EvaluationRoutes');
const TemplatesPage = page(() => import('@/features/templates/pages/templates-page'), 'TemplatesPage');
const AnalyticsPage = page(() => import('@/features/analytics/pages/analytics-page'), 'AnalyticsPage');
const InboxPage = page(() => import('@/features/approvals/pages/inbox-page'), 'InboxPage');
const InvitePage = page(() => import('@/features/invitations/pages/invite-page'), 'InvitePage');
const ApprovalLinkPage = page(
  () => import('@/features/approvals/pages/approval-link-page'),
  'ApprovalLinkPage',
);
const DocsPage = page(() => import('@/features/docs/pages/docs-page'), 'DocsPage');
const OAuthConsentPage = page(() => import('@/features/oauth/pages/oauth-consent-page'), 'OAuthConsentPage');
const NotFoundPage = page(() => import('./not-found-page'), 'NotFoundPage');
const ProfilePage = page(() => import('@/features/settings/pages/profile-page'), 'ProfilePage');
const ToolConfigDemoPage = page(
  () => import('@/features/tool-config-demo/pages/tool-config-demo-page'),
  'ToolConfigDemoPage',
);

/**
 * Any other page signed out: sign in, then back to it (lib/invite-links.ts, `next`). After signing
 * out (`keepPage` false) it is the plain sign-in form, wherever the app was.
 */
function SignInFirst({ keepPage }: { keepPage: boolean }) {
  const { pathname, search } = useLocation();
  return <Navigate to={keepPage ? signInFirstHref(pathname, search) : '/login'} replace />;
}

function SignedOutRoutes({ signedOut }: { signedOut: boolean }) {
  return (
    <Routes>
      {/* With a stored token whose session could not be read (the server failed): still the landing page. */}
      <Route path="/" element={<LandingPage />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/signup" element={<SignupPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/verify-email" element={<VerifyEmailPage />} />
      <Route path="/invite/:token" element={<InvitePage />} />
      <Route path="/approvals/email/:token" element={<ApprovalLinkPage />} />
      <Route path="/docs/*" element={<DocsPage />} />
      <Route path="*" element={<SignInFirst keepPage={!signedOut} />} />
    </Routes>
  );
}

function SignedInRoutes() {
  return (
    <Routes>
      <Route path="invite/:token" element={<InvitePage />} />
      <Route path="approvals/email/:token" element={<ApprovalLinkPage />} />
      {/* An MCP client's OAuth consent (modules/oauth): signed out, it is signed in first and back. */}
      <Route path="oauth/consent" element={<OAuthConsentPage />} />
      <Route path="forgot-password" element={<ForgotPasswordPage />} />
      <Route path="reset-password" element={<ResetPasswordPage />} />
      <Route path="verify-email" element={<VerifyEmailPage />} />
      <Route path="docs/*" element={<DocsPage />} />
      <Route element={<AppShell />}>
        <Route index element={<DashboardPage />} />
        <Route path="dashboard" element={<DashboardPage />} />
        <Route path="subscribe" element={<SubscribePage />} />
        <Route path="workflows" element={<WorkflowsPage />} />
        <Route path="workflows/new" element={<WorkflowNewPage />} />
        <Route path="workflows/edit/:id" element={<WorkflowEditPage />} />
        <Route path="agents" element={<AgentsPage />} />
        <Route path="agents/edit/:id" element={<AgentEditPage />} />
        <Route path="tools" element={<ToolsPage />} />
        <Route path="knowledge" element={<KnowledgePage />} />
        <Route path="knowledge/:id" element={<KnowledgeBasePage />} />
        <Route path="templates" element={<TemplatesPage />} />
        <Route path="evaluations/*" element={<EvaluationRoutes />} />
        <Route path="analytics" element={<AnalyticsPage />} />
        <Route path="inbox" element={<InboxPage />} />
        <Route path="settings/profile" element={<ProfilePage />} />
        <Route path="tool-config-demo" element={<ToolConfigDemoPage />} />
        <Route path="login" element={<Navigate to="/dashboard" replace />} />
        <Route path="signup" element={<Navigate to="/dashboard" replace />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

function SessionRoutes() {
  const { isLoading, isAuthenticated } = useAuth();
  // Signed in earlier in this visit: being signed out now is a sign-out, not a visit to come back to.
  const [wasSignedIn, setWasSignedIn] = useState(false);
  if (isAuthenticated && !wasSignedIn) setWasSignedIn(true);

  if (isLoading) return <FullPageSpinner fullScreen />;

  return (
    <Suspense fallback={<FullPageSpinner fullScreen />}>
      {isAuthenticated ? <SignedInRoutes /> : <SignedOutRoutes signedOut={wasSignedIn} />}
    </Suspense>
  );
}

export function AppRoutes() {
  return (
    <AppProviders>
      <SessionRoutes />
    </AppProviders>
  );
}
