import { MailCheck } from 'lucide-react';

import { CopyButton } from '@/components/copy-button';
import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

import { useVerificationLink } from '../api/invitations';
import { VERIFICATION_LINK_HINT } from '../team-permissions';

/**
 * 'Verification link' for an invitation when the server mails none (no SMTP_URL): asks for a fresh
 * link to the invitee's address and shows it on a line of its own at the end of a wrapping row, to copy
 * and pass on with the invitation link.
 */
export function VerificationLinkButton({
  orgId,
  invitation,
}: {
  orgId: string;
  invitation: { id: string; email: string };
}) {
  const fetchLink = useVerificationLink(orgId, invitation.id);
  const link = fetchLink.data?.link;
  return (
    <>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={fetchLink.isPending}
        aria-busy={fetchLink.isPending}
        aria-label={`Verification link for ${invitation.email}`}
        onClick={() => fetchLink.mutate()}
      >
        {fetchLink.isPending ? <Spinner /> : <MailCheck aria-hidden="true" />}
        Verification link
      </Button>
      {link && <VerificationLinkPanel id={invitation.id} link={link} />}
    </>
  );
}

function VerificationLinkPanel({ id, link }: { id: string; link: string }) {
  const inputId = `verification-link-${id}`;
  return (
    <div className="order-last grid basis-full gap-1.5">
      <label htmlFor={inputId} className="text-xs font-medium">
        Verification link
      </label>
      <div className="flex items-center gap-1">
        <Input
          id={inputId}
          readOnly
          value={link}
          onFocus={(event) => event.currentTarget.select()}
          className="font-mono text-xs"
        />
        <CopyButton value={link} label="verification link" size="md" />
      </div>
      <p className="text-xs text-muted-foreground">{VERIFICATION_LINK_HINT}</p>
    </div>
  );
}
