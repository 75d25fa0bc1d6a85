import { z } from 'zod';

/** What a member of an agency may do; `docs/permissions.md` is the table in words. */
export const TEAM_ROLES = ['owner', 'manager', 'agent', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Owner',
  manager: 'Manager',
  agent: 'Agent',
  viewer: 'Viewer',
};

/** One sentence per role, for the team screen and the invitation. */
export const TEAM_ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  owner: 'Everything, including billing, the team and the agency’s settings.',
  manager: 'Everything but billing and ownership: works the book, runs the team and the settings.',
  agent: 'Works the book: customers, policies, payments, claims, leads and the calendar.',
  viewer: 'Reads everything the plan shows and changes nothing.',
};

/**
 * What a request does, as far as roles are concerned. Every API route names one (a read by
 * default, work on the book for other methods); the roles that may do each are below, and nowhere
 * else: the API refuses the others with 403 and the web hides what a role cannot do.
 */
export const TEAM_ACTIONS = {
  /** Reading the agency's records, reports and settings. */
  read: ['owner', 'manager', 'agent', 'viewer'],
  /** The member's own account: profile, password, two-step sign-in, sessions, bell notifications. */
  own_account: ['owner', 'manager', 'agent', 'viewer'],
  /** Changing the book: customers, policies, payments, claims, leads, meetings, imports, tickets. */
  work: ['owner', 'manager', 'agent'],
  /** Erasing a record for good (secure delete). */
  secure_delete: ['owner', 'manager'],
  /** Insurers, their commission rates, and reconciling their commission statements. */
  insurers: ['owner', 'manager'],
  /** The agency's settings: policy types, email, notification rules and templates, the team's rules. */
  agency_settings: ['owner', 'manager'],
  /** Invitations and members (making or unmaking an owner takes an owner). */
  team: ['owner', 'manager'],
  /** The agency's activity log. */
  audit_log: ['owner', 'manager'],
  /** The subscription, payment methods and checkout. */
  billing: ['owner'],
  /** Requiring two-step sign-in of every member. */
  agency_security: ['owner'],
} as const satisfies Record<string, readonly TeamRole[]>;
export type TeamAction = keyof typeof TEAM_ACTIONS;

/** Whether a member with this role may do the action. */
export const roleCan = (role: TeamRole, action: TeamAction): boolean =>
  (TEAM_ACTIONS[action] as readonly TeamRole[]).includes(role);

/**
 * Ownership, the rule inside `team`: giving the role `role` (by an invitation too), or changing a
 * member who has it, takes an owner when it is `owner` (a manager does all but billing and ownership).
 */
export const mayHandleRole = (actorRole: TeamRole, role: TeamRole): boolean =>
  role !== 'owner' || actorRole === 'owner';

/**
 * Whom an agency that shows agents only their own book (`agents_see_own_book`) keeps to it: agents.
 * Owners, managers and viewers always read the whole book.
 */
export const keptToOwnBook = (role: TeamRole): boolean => role === 'agent';

/** The sentence a refused request answers with (403). */
export const roleRefusal = (role: TeamRole): string =>
  role === 'viewer'
    ? 'Your role (Viewer) can read but not change anything. Ask an owner or manager of your agency.'
    : `Your role (${TEAM_ROLE_LABELS[role]}) does not allow this. Ask an owner or manager of your agency.`;

export const teamRole = z.enum(TEAM_ROLES, { error: 'Choose a role: owner, manager, agent or viewer.' });
