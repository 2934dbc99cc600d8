import { useDocumentTitle } from '@/lib/use-document-title';

import { AuthLayout } from '../components/auth-layout';
import { SignupForm } from '../components/signup-form';

export function SignupPage() {
  useDocumentTitle('Create your account');
  return (
    <AuthLayout
      title="Create your account"
      description="Set up your Crewline workspace and build your first agent team in minutes."
    >
      <SignupForm />
    </AuthLayout>
  );
}
