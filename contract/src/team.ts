import { z } from 'zod';
import { emailField, passwordField } from './auth.js';
import { isoDate, NOT_AN_ACTIVE_MEMBER, percentage, REQUIRED, requiredText, text } from './fields.js';
import { teamRole } from './roles.js';

/** How long an invitation link stays good. */
export const INVITATION_DAYS = 7;

/** A member's share from a day on; `effective_from` null for the share they started with. */
export const commissionShareChange = z.object({
  effective_from: z.string().nullable(),
  share: z.string(),
});
export type CommissionShareChange = z.infer<typeof commissionShareChange>;

export const teamMember = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: teamRole,
  is_active: z.boolean(),
  /**
   * The member's default share, in percent, of the agency's commission on what they produce: the one
   * in force today. A term records the share in force the day it is written.
   */
  commission_split_percentage: z.string(),
  /** Their share over time, oldest first: the one they started with, then each dated change. */
  commission_split_history: z.array(commissionShareChange),
  last_sign_in_at: z.string().nullable(),
  date_joined: z.string(),
});
export type TeamMember = z.infer<typeof teamMember>;

export const teamMemberList = z.object({ results: z.array(teamMember) });

export const teamMemberPatchBody = z
  .object({
    role: teamRole.optional(),
    is_active: z.boolean({ error: 'Must be true or false.' }).optional(),
    commission_split_percentage: percentage.optional(),
    /**
     * The day a new `commission_split_percentage` applies from (the agency's today when left out,
     * never before it): the terms written from that day on are credited at it; those already written
     * keep theirs.
     */
    commission_split_effective_from: isoDate.optional(),
    /**
     * Deactivating a member hands their customers, policies, claims and leads to this member (of the
     * same agency, active, and not a viewer) to look after; without it, the book stays assigned to
     * the one who left. The credit for the terms they wrote stays theirs.
     */
    reassign_to: z.uuid('Choose a member of your agency.').optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Change at least one of role, is_active and commission_split_percentage.',
    path: ['role'],
  })
  .refine(
    (body) =>
      body.commission_split_effective_from === undefined || body.commission_split_percentage !== undefined,
    {
      message: 'Give the new commission share this date applies to.',
      path: ['commission_split_percentage'],
    },
  );
export type TeamMemberPatchBody = z.infer<typeof teamMemberPatchBody>;

export const invitationBody = z.object({ email: emailField, role: teamRole });
export type InvitationBody = z.infer<typeof invitationBody>;

export const invitation = z.object({
  id: z.string(),
  email: z.string(),
  role: teamRole,
  expires_at: z.string(),
  created_at: z.string(),
  invited_by_name: z.string(),
  email_sent: z
    .boolean()
    .describe(
      'The mail server took the invitation email. False with no mail server set up, or when it refused: pass the link on yourself.',
    ),
});
export type Invitation = z.infer<typeof invitation>;

/**
 * An invitation with its link: when it is made, and when its link is made anew. Only the token's hash
 * is stored, so these are the only times the link can be shown.
 */
export const createdInvitation = invitation.extend({ invite_url: z.string() });
export type CreatedInvitation = z.infer<typeof createdInvitation>;

export const invitationList = z.object({ results: z.array(invitation) });

export const invitationToken = text({ error: REQUIRED }).min(1, 'This field may not be blank.').max(100);

/** What the invitation page shows before the form: the agency and the role offered. */
export const invitationPreview = z.object({
  email: z.string(),
  role: teamRole,
  company_name: z.string(),
  invited_by_name: z.string(),
  expires_at: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreview>;

export const acceptInvitationBody = z.object({
  token: invitationToken,
  password: passwordField,
  first_name: requiredText(150),
  last_name: requiredText(150),
});
export type AcceptInvitationBody = z.infer<typeof acceptInvitationBody>;

/** Days a member has to turn two-step sign-in on once the agency requires it (or once they join). */
export const TWO_STEP_GRACE_DAYS = 7;

export const teamSettings = z.object({
  /** Agents see only the customers assigned to them and what hangs off those. */
  agents_see_own_book: z.boolean(),
  /** Every member must sign in with two steps, after a grace of TWO_STEP_GRACE_DAYS (owner's choice). */
  require_two_step: z.boolean(),
  require_two_step_since: z.string().nullable(),
});
export type TeamSettings = z.infer<typeof teamSettings>;

export const teamSettingsPatchBody = z
  .object({
    agents_see_own_book: z.boolean({ error: 'Must be true or false.' }).optional(),
    require_two_step: z.boolean({ error: 'Must be true or false.' }).optional(),
  })
  .refine((body) => body.agents_see_own_book !== undefined || body.require_two_step !== undefined, {
    message: 'Change agents_see_own_book or require_two_step.',
    path: ['agents_see_own_book'],
  });
export type TeamSettingsPatchBody = z.infer<typeof teamSettingsPatchBody>;

/** At most this many records are reassigned by one request. */
export const MAX_REASSIGNED = 1000;

const reassignedIds = z.array(z.uuid('Not a valid id.')).optional();

/** `POST /team/reassign/`: hands the records named to one active member of the agency. */
export const reassignBody = z
  .object({
    to: z.uuid({ error: NOT_AN_ACTIVE_MEMBER }),
    customer_ids: reassignedIds,
    policy_ids: reassignedIds,
    claim_ids: reassignedIds,
    lead_ids: reassignedIds,
  })
  .superRefine((body, context) => {
    const count = [body.customer_ids, body.policy_ids, body.claim_ids, body.lead_ids].reduce(
      (sum, ids) => sum + (ids?.length ?? 0),
      0,
    );
    if (count === 0) {
      context.addIssue({ code: 'custom', path: ['customer_ids'], message: 'Choose at least one record.' });
    } else if (count > MAX_REASSIGNED) {
      context.addIssue({
        code: 'custom',
        path: ['customer_ids'],
        message: `At most ${MAX_REASSIGNED.toLocaleString('en-US')} records at a time.`,
      });
    }
  });
export type ReassignBody = z.infer<typeof reassignBody>;

/** How many records of each kind changed hands (those already with the member are left as they were). */
export const reassignResult = z.object({
  customers: z.number().int(),
  policies: z.number().int(),
  claims: z.number().int(),
  leads: z.number().int(),
});
export type ReassignResult = z.infer<typeof reassignResult>;
