import {
  type CommissionStatementDetail,
  STATEMENT_LINE_OUTCOMES,
  STATEMENT_LINES_PAGE_SIZE,
  STATEMENT_OUTCOME_LABELS,
  STATEMENT_RESOLUTION_LABELS,
  type StatementLine,
  type StatementLineResolution,
} from '@coverdesk/contract';
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Chip,
  Group,
  Pagination,
  SimpleGrid,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowBackUp,
  IconCalendarPlus,
  IconCheck,
  IconPencil,
  IconReceiptOff,
  IconUserOff,
} from '@tabler/icons-react';
import { createElement, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { BackLink } from '../../../components/back-link.js';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { ListCount } from '../../../components/data-list.js';
import { FigureLabel } from '../../../components/figure-label.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import {
  useConfirmMatches,
  useDeleteStatement,
  useResolveLine,
  useStatement,
  useStatementAction,
  useUpdateLine,
} from '../api.js';
import { DuplicateLines } from '../components/duplicate-lines.js';
import { FollowUpDialog } from '../components/follow-up-dialog.js';
import { LineEditor } from '../components/line-editor.js';
import { MissingPolicies } from '../components/missing-policies.js';
import { ResolveDialog } from '../components/resolve-dialog.js';
import { StatementHeading } from '../components/statement-heading.js';
import { StatementLines } from '../components/statement-lines.js';
import { StatementReading } from '../components/statement-reading.js';
import { TotalEditor } from '../components/total-editor.js';

const FILTERS = [...STATEMENT_LINE_OUTCOMES, 'unconfirmed', 'unresolved'] as const;
type Filter = (typeof FILTERS)[number];
const FILTER_LABELS: Record<Filter, string> = {
  ...STATEMENT_OUTCOME_LABELS,
  unconfirmed: 'Unconfirmed',
  unresolved: 'Unresolved',
};

/** Why Accept is refused, or null when it may be pressed. */
function acceptBlocked(statement: CommissionStatementDetail): string | null {
  if (statement.total_amount !== statement.lines_total)
    return 'The typed total differs from the sum of the lines.';
  if (statement.unconfirmed > 0)
    return `${statement.unconfirmed} fuzzy ${statement.unconfirmed === 1 ? 'match is' : 'matches are'} still to confirm.`;
  if (statement.unresolved > 0)
    return `${statement.unresolved} unmatched ${statement.unresolved === 1 ? 'line is' : 'lines are'} still to match, mark not ours or write off.`;
  return null;
}

/** /commission-statements/:id: a statement's lines, their outcomes, and accepting it. */
export function Component() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const filter = (FILTERS as readonly string[]).includes(params.get('outcome') ?? '')
    ? (params.get('outcome') as Filter)
    : null;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const statement = useStatement(id, filter, page);
  const canWrite = useCan('insurers');
  const canWork = useCan('work');
  const mobile = useDevice() === 'mobile';
  const navigate = useNavigate();
  const accept = useStatementAction(id, 'accept');
  const reopen = useStatementAction(id, 'reopen');
  const remove = useDeleteStatement(id);
  const confirmMatches = useConfirmMatches(id);
  const update = useUpdateLine(id);
  const unresolve = useResolveLine(id);
  const [editing, setEditing] = useState<StatementLine | null>(null);
  const [editingTotal, setEditingTotal] = useState(false);
  const [resolving, setResolving] = useState<{
    line: StatementLine;
    resolution: StatementLineResolution;
  } | null>(null);
  const [followingUp, setFollowingUp] = useState<StatementLine | null>(null);
  const [confirming, setConfirming] = useState<
    'reopen' | 'delete' | 'confirm-matches' | 'accept-duplicates' | null
  >(null);

  if (statement.isPending) return <DetailSkeleton />;
  if (statement.isError)
    return (
      <ErrorState
        error={statement.error}
        onRetry={() => void statement.refetch()}
        back={{ to: '/commission-statements', label: 'Back to statements' }}
      />
    );
  const s = statement.data;
  if (s.reading) return <StatementReading statement={s} reading={s.reading} />;
  const open = s.status === 'review';
  const editable = canWrite && open;
  const blocked = acceptBlocked(s);
  const totalsDiffer = s.total_amount !== s.lines_total;
  const chooseFilter = (value: Filter | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set('outcome', value);
        else next.delete('outcome');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  const choosePage = (value: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('page', String(value));
      return next;
    });
  const counts: [Filter, number][] = [
    ...STATEMENT_LINE_OUTCOMES.map((outcome): [Filter, number] => [outcome, s.counts[outcome]]),
    ['unconfirmed', s.unconfirmed],
    ['unresolved', s.unresolved],
  ];

  /** A line's actions: on a phone's card as buttons, in the table's narrow column as icons. */
  const lineActions = (line: StatementLine) => {
    const action = (label: string, icon: typeof IconPencil, onClick: () => void, name: string) =>
      mobile ? (
        <Button
          size="xs"
          variant="default"
          leftSection={createElement(icon, { size: 14, 'aria-hidden': true })}
          onClick={onClick}
          aria-label={name}
        >
          {label}
        </Button>
      ) : (
        <Tooltip label={name}>
          <ActionIcon variant="default" size="md" onClick={onClick} aria-label={name}>
            {createElement(icon, { size: 16, 'aria-hidden': true })}
          </ActionIcon>
        </Tooltip>
      );
    return (
      <Group gap={4} wrap="nowrap">
        {editable && line.match_method === 'fuzzy' && !line.confirmed && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconCheck size={14} aria-hidden />}
            loading={update.isPending && update.variables?.line === line.line_number}
            onClick={() => update.mutate({ line: line.line_number, confirmed: true })}
            aria-label={`Confirm the match of line ${line.line_number}`}
          >
            Confirm
          </Button>
        )}
        {editable && action('Change', IconPencil, () => setEditing(line), `Change line ${line.line_number}`)}
        {editable &&
          line.policy_id === null &&
          !line.resolution &&
          action(
            'Not ours',
            IconUserOff,
            () => setResolving({ line, resolution: 'not_ours' }),
            `Mark line ${line.line_number} not ours`,
          )}
        {editable &&
          line.policy_id === null &&
          !line.resolution &&
          action(
            'Write off',
            IconReceiptOff,
            () => setResolving({ line, resolution: 'written_off' }),
            `Write off line ${line.line_number}`,
          )}
        {editable &&
          line.resolution &&
          action(
            'Undo',
            IconArrowBackUp,
            () => unresolve.mutate({ line: line.line_number, body: null }),
            `Undo ${STATEMENT_RESOLUTION_LABELS[line.resolution].toLowerCase()} on line ${line.line_number}`,
          )}
        {canWork &&
          line.outcome === 'short_paid' &&
          action(
            'Follow up',
            IconCalendarPlus,
            () => setFollowingUp(line),
            `Follow up line ${line.line_number} on the calendar`,
          )}
      </Group>
    );
  };
  const hasActions = editable || (canWork && s.counts.short_paid > 0);

  return (
    <Stack maw={1400}>
      <BackLink to="/commission-statements">Statements</BackLink>
      <Card withBorder padding="lg">
        <Stack gap="md">
          <StatementHeading statement={s} />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Stack gap={0}>
              <Text fz="sm" c="dimmed">
                <FigureLabel label="Statement total" figure="statement_total" />
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Text fw={700} fz="lg" style={TABULAR_FIGURES}>
                  <Money amount={s.total_amount} />
                </Text>
                {editable && (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    leftSection={<IconPencil size={14} aria-hidden />}
                    onClick={() => setEditingTotal(true)}
                  >
                    Edit total
                  </Button>
                )}
              </Group>
            </Stack>
            <Stack gap={0}>
              <Text fz="sm" c="dimmed">
                Sum of the lines
              </Text>
              <Text fw={700} fz="lg" c={totalsDiffer ? 'red.8' : undefined} style={TABULAR_FIGURES}>
                <Money amount={s.lines_total} />
              </Text>
            </Stack>
            <Stack gap={0}>
              <Text fz="sm" c="dimmed">
                Lines
              </Text>
              <Text fw={700} fz="lg" style={TABULAR_FIGURES}>
                {s.line_count.toLocaleString('en-US')}
              </Text>
            </Stack>
          </SimpleGrid>
          {totalsDiffer && (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
              The statement's total and the sum of its lines differ: check the total you typed against the
              insurer's statement{editable ? ', and edit it if it is wrong' : ''}. Written-off and not-ours
              lines count in the sum.
            </Alert>
          )}
          {open && s.duplicates.length > 0 && <DuplicateLines duplicates={s.duplicates} />}
          {canWrite && (
            <Group>
              {open ? (
                <>
                  <Button
                    leftSection={<IconCheck size={16} aria-hidden />}
                    disabled={blocked !== null}
                    onClick={() =>
                      s.duplicates.length > 0 ? setConfirming('accept-duplicates') : accept.mutate(undefined)
                    }
                    loading={accept.isPending}
                  >
                    Accept
                  </Button>
                  {s.unconfirmed > 1 && (
                    <Button variant="default" onClick={() => setConfirming('confirm-matches')}>
                      Confirm all {s.unconfirmed} fuzzy matches
                    </Button>
                  )}
                  <Button variant="default" color="red" onClick={() => setConfirming('delete')}>
                    Delete
                  </Button>
                </>
              ) : (
                <Button variant="default" onClick={() => setConfirming('reopen')}>
                  Reopen
                </Button>
              )}
              {open && blocked && (
                <Text fz="sm" c="dimmed">
                  {blocked}
                </Text>
              )}
            </Group>
          )}
          {accept.isError && (
            <Alert role="alert" color="red" variant="light" title="Not accepted">
              {errorText(accept.error)}
            </Alert>
          )}
        </Stack>
      </Card>

      <Group gap="xs" role="group" aria-label="Show lines">
        <Chip checked={filter === null} onChange={() => chooseFilter(null)} variant="outline">
          All ({s.line_count})
        </Chip>
        {counts.map(([key, count]) => (
          <Chip
            key={key}
            checked={filter === key}
            onChange={() => chooseFilter(filter === key ? null : key)}
            variant="outline"
          >
            {FILTER_LABELS[key]} ({count})
          </Chip>
        ))}
        <Chip
          checked={false}
          onChange={() => document.getElementById('missing')?.scrollIntoView()}
          variant="outline"
        >
          Missing ({s.counts.missing})
        </Chip>
      </Group>

      <StatementLines lines={s.lines} mobile={mobile} actions={hasActions ? lineActions : undefined} />

      {s.lines_matching > STATEMENT_LINES_PAGE_SIZE && (
        <Group justify="space-between" gap="sm">
          <ListCount
            first={(page - 1) * STATEMENT_LINES_PAGE_SIZE + 1}
            shown={s.lines.length}
            count={s.lines_matching}
            noun={{ one: 'line', many: 'lines' }}
          />
          <Pagination
            total={Math.ceil(s.lines_matching / STATEMENT_LINES_PAGE_SIZE)}
            value={page}
            onChange={choosePage}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': `${control} page of lines` })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item} of lines` })}
          />
        </Group>
      )}

      <MissingPolicies statement={s} />

      {followingUp && (
        <FollowUpDialog statement={s} line={followingUp} onClose={() => setFollowingUp(null)} />
      )}
      {editingTotal && <TotalEditor statement={s} onClose={() => setEditingTotal(false)} />}
      {resolving && (
        <ResolveDialog
          statementId={id}
          line={resolving.line}
          resolution={resolving.resolution}
          onClose={() => setResolving(null)}
        />
      )}
      {unresolve.isError && (
        <Alert role="alert" color="red" variant="light" title="Not undone">
          {errorText(unresolve.error)}
        </Alert>
      )}
      <ConfirmDialog
        opened={confirming === 'accept-duplicates'}
        title="Accept anyway?"
        confirmLabel="Accept anyway"
        busy={accept.isPending}
        error={accept.isError ? errorText(accept.error) : null}
        onConfirm={() =>
          accept.mutate({ acknowledge_duplicates: true }, { onSuccess: () => setConfirming(null) })
        }
        onClose={() => setConfirming(null)}
      >
        {s.duplicates.length} {s.duplicates.length === 1 ? 'line repeats' : 'lines repeat'} a line already
        paid by an accepted statement (same policy, amount and transaction date). Accepted, the insurer is
        counted as having paid {s.duplicates.length === 1 ? 'it' : 'them'} twice. Accept only if it did.
      </ConfirmDialog>
      {editing && (
        <LineEditor
          statementId={id}
          companyId={s.company_id}
          line={editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={confirming === 'reopen'}
        title="Reopen this statement?"
        confirmLabel="Reopen"
        busy={reopen.isPending}
        error={reopen.isError ? errorText(reopen.error) : null}
        onConfirm={() => reopen.mutate(undefined, { onSuccess: () => setConfirming(null) })}
        onClose={() => setConfirming(null)}
      >
        The receipts recorded when it was accepted are removed, and its lines can be changed again.
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirming === 'confirm-matches'}
        title={`Confirm all ${s.unconfirmed} fuzzy matches?`}
        confirmLabel="Confirm them"
        confirmColor="blue"
        busy={confirmMatches.isPending}
        error={confirmMatches.isError ? errorText(confirmMatches.error) : null}
        onConfirm={() => confirmMatches.mutate(undefined, { onSuccess: () => setConfirming(null) })}
        onClose={() => setConfirming(null)}
      >
        Each was found by the insured's name and a premium within 1%, not by the policy number. Check a few
        under Unconfirmed first; a wrong one can still be changed until you accept.
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirming === 'delete'}
        title="Delete this statement?"
        confirmLabel="Delete"
        busy={remove.isPending}
        error={remove.isError ? errorText(remove.error) : null}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/commission-statements') })}
        onClose={() => setConfirming(null)}
      >
        The statement and its lines are removed. You can upload the file again.
      </ConfirmDialog>
    </Stack>
  );
}
