import { useDocumentTitle } from '@/lib/use-document-title';

import { AuthLayout } from '../components/auth-layout';
import { LoginForm } from '../components/login-form';

export function LoginPage() {
  useDocumentTitle('Sign in');
  return (
    <AuthLayout
      title="Welcome back"
      description="Sign in to your Crewline workspace to manage your agents and workflows."
    >
      <LoginForm />
    </AuthLayout>
  );
}
