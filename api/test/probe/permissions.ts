import { readFileSync } from 'node:fs';
import { TEAM_ROLES, type TeamRole } from '@coverdesk/contract';

/** The table of who may do what, as docs/permissions.md writes it for people to read. */
export interface DocumentedPermissions {
  /** Each action and the roles that may do it ("yes" in the role's column). */
  actions: Record<string, TeamRole[]>;
  /** Each operation ("GET /api/customers/") and the action it is. */
  operations: Record<string, string>;
}

const DOCUMENT = new URL('../../../docs/permissions.md', import.meta.url);

const cellsOf = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());

const codeIn = (cell: string | undefined) => /^`([^`]+)`/.exec(cell ?? '')?.[1];

/**
 * Reads docs/permissions.md: the roles' table (a row per action named in code, a column per role
 * headed by its name) and the operations' table (an operation in code, then its action in code).
 */
export function documentedPermissions(): DocumentedPermissions {
  const actions: Record<string, TeamRole[]> = {};
  const operations: Record<string, string> = {};
  let roleColumns: (TeamRole | undefined)[] = [];
  for (const line of readFileSync(DOCUMENT, 'utf8').split('\n')) {
    if (!line.startsWith('|')) continue;
    const cells = cellsOf(line);
    const headings = cells.map((cell) => cell.toLowerCase() as TeamRole);
    if (headings.some((heading) => TEAM_ROLES.includes(heading))) {
      roleColumns = headings.map((heading) => (TEAM_ROLES.includes(heading) ? heading : undefined));
      continue;
    }
    const first = codeIn(cells[0]);
    if (!first) continue;
    if (/^[A-Z]+ \//.test(first)) {
      const action = codeIn(cells[1]);
      if (action) operations[first] = action;
    } else {
      actions[first] = roleColumns.flatMap((role, index) =>
        role && cells[index]?.toLowerCase().startsWith('yes') ? [role] : [],
      );
    }
  }
  return { actions, operations };
}
