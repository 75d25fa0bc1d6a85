/**
 * The glossary of Coverdesk's figures: one name and one definition for each, shown on hover wherever
 * the figure appears (dashboard, current portfolio, commission report, policy page) and written out in
 * docs/figures.md, which repeats these words exactly (a test checks it).
 */
export const FIGURES = {
  in_force: {
    label: 'In force',
    definition:
      'Policies covering today: started, not yet ended, not cancelled; a term renewed early stays in force to its end. Premium in force is their total premium.',
  },
  expected: {
    label: 'Expected commission',
    definition:
      "Net premium x commission %, to the cent. A cancelled policy, or a term its renewal ended early, expects only the share its cover earned: its days of cover over the term's, or its premium less the refund entered.",
  },
  earned: {
    label: 'Earned premium',
    definition:
      'The premium a term keeps: all of it, unless cancelled or ended early by a renewal starting before its end; then the premium for the days of cover, or the premium less the refund.',
  },
  received: {
    label: 'Earned on customer payments',
    definition:
      'The commission earned on what customers paid, which the insurer owes: not money received (that is Paid by insurer). All the expected commission once the earned premium is paid (full policy), or in proportion to what is paid (pro rata).',
  },
  outstanding: {
    label: 'Outstanding commission',
    definition: 'Expected commission less the commission earned on customer payments.',
  },
  this_month: {
    label: 'Commission this month',
    definition:
      'Expected: the commission of the terms, new and renewals, that started this month up to today (a cancelled one with what it earned). Earned on customer payments: what insurers owe on the payments customers made this month.',
  },
  this_year: {
    label: 'Commission this year',
    definition:
      'Expected commission, and commission earned on customer payments, of the policies whose term overlaps this calendar year, as the commission report counts them for the year.',
  },
  owed_by_insurer: {
    label: 'Owed by insurer',
    definition:
      "What the insurer owes on a policy by a day, whatever the customer has paid: the term's expected commission once it started (full policy), or the commission of the instalments due by then (pro rata); less what its accepted commission statements paid.",
  },
  insurer_paid: {
    label: 'Paid by insurer',
    definition:
      "What the insurer paid on a policy by the agency's accepted commission statements, chargebacks negative.",
  },
  statement_total: {
    label: 'Statement total',
    definition:
      "What the insurer says a commission statement pays in all, as the broker typed it (corrected while in review). To accept, it must equal the sum of all the statement's lines, those marked not ours or written off included; only the lines matched to a policy are Paid by insurer.",
  },
  statement_missing: {
    label: 'Missing from a statement',
    definition:
      "The insurer's policies owed commission by the statement's date and not yet paid by its accepted statements, whatever month it fell due, that no line of the statement names: with the month it fell due, the term's start (full policy) or the first instalment not yet paid for (pro rata).",
  },
} as const;

export type FigureName = keyof typeof FIGURES;
