import { z } from 'zod';
import { organizationSchema } from './auth';

/**
 * The roles a member holds in an organization, strongest first. An owner may do everything, an admin
 * manages members, invitations, connections and settings, a member builds and runs agents and
 * workflows (docs/security.md, Tenancy and roles).
 */
export const organizationRoleValues = ['owner', 'admin', 'member'] as const;
export type OrganizationRole = (typeof organizationRoleValues)[number];
export const organizationRoleSchema = z.enum(organizationRoleValues, {
  message: 'Role must be owner, admin or member',
});

const rank: Record<OrganizationRole, number> = { owner: 3, admin: 2, member: 1 };

/** Whether `role` (a membership's stored role) includes what `needed` allows. Unknown roles include nothing. */
export function hasRole(role: string | null | undefined, needed: OrganizationRole): boolean {
  const held = rank[role as OrganizationRole] ?? 0;
  return held >= rank[needed];
}

/** The 403 message of an action that needs `role`. */
export function roleRequired(role: OrganizationRole): string {
  return role === 'owner'
    ? 'This action needs the owner role'
    : `This action needs the ${role} role${role === 'admin' ? ' (or owner)' : ''}`;
}

export const teamMessages = {
  lastOwner: 'An organization always keeps at least one owner: make another member owner first',
  memberNotFound: 'Member not found',
  organizationNotFound: 'Organization not found',
  alreadyMember: 'This person is already a member of the organization',
  invitationNotFound: 'This invitation does not exist, was already used, was revoked or has expired',
  invitationEmailMismatch:
    'This invitation was sent to another email address: sign in with that address to accept it',
  invitationGone: 'Invitation not found',
  inviteeHasNoAccount: 'No account uses this address yet: the invitee signs up first, then ask again.',
  inviteeVerified: 'This address is already verified.',
  verificationMailedByServer: 'The server mails verification links itself (SMTP_URL is set).',
} as const;

export const organizationNameSchema = z
  .string()
  .trim()
  .min(1, { message: 'Name is required' })
  .max(100, { message: 'Name must be at most 100 characters' });

/** PUT /api/organizations/:orgId — renames (the slug stays). */
export const updateOrganizationSchema = z.object({ name: organizationNameSchema });

/** GET /api/organizations/:orgId/members */
export const memberSchema = z.object({
  userId: z.string(),
  username: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.string(),
  joinedAt: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

/** PUT /api/organizations/:orgId/members/:userId */
export const updateMemberSchema = z.object({ role: organizationRoleSchema });
export const memberParamsSchema = z.object({ orgId: z.string(), userId: z.string() });

const inviteeEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Invalid email address' }).max(254));

/** POST /api/organizations/:orgId/invitations */
export const createInvitationSchema = z.object({
  email: inviteeEmail,
  role: organizationRoleSchema.optional().default('member'),
});
export type CreateInvitationInput = z.input<typeof createInvitationSchema>;

/** The answer to creating an invitation: the only time the token is shown. */
export const createdInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  inviteUrl: z.string(),
  token: z.string(),
  expiresAt: z.string(),
  /** Whether the link was also emailed (the organization has an active SendGrid connection). */
  emailSent: z.boolean(),
  /**
   * Whether the server mails verification links itself (SMTP_URL is set). Without, an admin asks for
   * the invitee's (POST …/invitations/:id/verification-link) and passes it on with the invitation.
   */
  verificationMailed: z.boolean(),
});
export type CreatedInvitation = z.infer<typeof createdInvitationSchema>;

/** GET /api/organizations/:orgId/invitations — the pending ones. */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** As in the created invitation's answer: false when the admin hands out the verification link. */
  verificationMailed: z.boolean(),
});
export type Invitation = z.infer<typeof invitationSchema>;
export const invitationParamsSchema = z.object({ orgId: z.string(), id: z.string() });
export const invitationTokenParamsSchema = z.object({ token: z.string() });

/** POST /api/organizations/:orgId/invitations/:id/verification-link (no mail transport only). */
export const verificationLinkSchema = z.object({ link: z.string() });
export type VerificationLink = z.infer<typeof verificationLinkSchema>;

/** GET /api/invitations/:token (public): what the invitee sees before accepting. */
export const invitationPreviewSchema = z.object({
  organization: z.object({ name: z.string() }),
  invitedBy: z.string().nullable(),
  email: z.string(),
  role: z.string(),
  expiresAt: z.string(),
  /** False without a mail transport: the invitee asks whoever invited them for a verification link. */
  verificationMailed: z.boolean(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** GET /api/auth/organizations — every organization of the signed-in user. */
export const userOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  role: z.string(),
});
export type UserOrganization = z.infer<typeof userOrganizationSchema>;

/** POST /api/auth/switch-organization */
export const switchOrganizationSchema = z.object({ organizationId: z.string() });

/** POST /api/invitations/:token/accept — the organization joined (with the invited role). */
export const acceptedInvitationSchema = z.object({ organization: organizationSchema });
