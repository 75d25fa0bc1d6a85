import {
  addDays,
  CALENDAR_EVENT_KINDS,
  CALENDAR_KIND_MODULES,
  type CalendarEvent,
  type CalendarEventsQuery,
} from '@coverdesk/contract';
import type { DatesSetArg } from '@fullcalendar/core';
import type FullCalendar from '@fullcalendar/react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconAdjustmentsHorizontal,
  IconCalendarEvent,
  IconChevronLeft,
  IconChevronRight,
  IconPlus,
  IconRss,
} from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAccess } from '../../../app/access.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { useInsurerChoices } from '../../../lib/insurer-choices.js';
import { useAgencyToday } from '../../../lib/use-agency-today.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import { useCalendarEvents, useCalendarUsers, useMoveMeeting } from '../api.js';
import { EventCalendar, VIEWS, type ViewName } from '../components/event-calendar.js';
import { KindChips } from '../components/event-kinds.js';
import { FeedDialog } from '../components/feed-dialog.js';
import { localDay, MeetingDialog, type MeetingTarget, slotOf } from '../components/meeting-dialog.js';

const VIEW_LABELS: Record<ViewName, string> = { month: 'Month', week: 'Week', day: 'Day', agenda: 'Agenda' };
/** A phone has no room for a week of hours. */
const PHONE_VIEWS: ViewName[] = ['agenda', 'day', 'month'];
const DESK_VIEWS: ViewName[] = ['month', 'week', 'day', 'agenda'];

const meetingId = (event: CalendarEvent) => event.id.slice('meeting:'.length);

/** The new times of a meeting dropped or resized on the calendar (on the broker's clock). */
function movedTimes(start: Date, end: Date | null, allDay: boolean) {
  if (allDay) {
    const first = localDay(start);
    return { all_day: true, start: first, end: end ? addDays(localDay(end), -1) : first };
  }
  // Dragged from the all-day row into the hours, a meeting lasts an hour.
  const until = end ?? new Date(start.getTime() + 60 * 60_000);
  return { all_day: false, start: start.toISOString(), end: until.toISOString() };
}

/**
 * /calendar: renewals, instalments, follow-ups, claims and meetings on one calendar, with month,
 * week, day and agenda views (agenda first on a phone), filters in the URL, meetings made by
 * clicking a slot and moved by dragging, and a feed for calendar apps.
 */
export function Component() {
  const phone = useDevice() === 'mobile';
  const canWork = useCan('work');
  const navigate = useNavigate();
  const { canOpen } = useAccess();
  const today = useAgencyToday();
  const [params, setParams] = useSearchParams();
  const calendar = useRef<FullCalendar>(null);
  const [range, setRange] = useState<{
    start: string;
    end: string;
    title: string;
    view: ViewName;
    date: string;
  } | null>(null);
  const [slot, setSlot] = useState<MeetingTarget | null>(null);
  const [feedOpen, feed] = useDisclosure(false);
  const [filtersOpen, filters] = useDisclosure(false);
  const move = useMoveMeeting();

  const views = phone ? PHONE_VIEWS : DESK_VIEWS;
  const asked = params.get('view') as ViewName | null;
  const view: ViewName = asked && views.includes(asked) ? asked : phone ? 'agenda' : 'month';
  const available = CALENDAR_EVENT_KINDS.filter((kind) => canOpen(CALENDAR_KIND_MODULES[kind]));
  const askedKinds = params.get('kinds')?.split(',') ?? null;
  const shown = askedKinds ? available.filter((kind) => askedKinds.includes(kind)) : available;
  const company = params.get('company');
  const assignee = params.get('assignee');
  const insurers = useInsurerChoices(canOpen('module_companies'));
  const users = useCalendarUsers();

  const update = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const narrowing = useMemo(
    () => ({
      ...(shown.length < available.length ? { kinds: shown.join(',') } : {}),
      ...(company ? { company } : {}),
      ...(assignee ? { assignee } : {}),
    }),
    [shown, available, company, assignee],
  );
  const nothingShown = shown.length === 0;
  const events = useCalendarEvents(
    range && !nothingShown ? { start: range.start, end: range.end, ...narrowing } : null,
  );
  const todays = useCalendarEvents(
    nothingShown ? null : ({ start: today, end: today, ...narrowing } as CalendarEventsQuery),
  );
  const todayCount = (todays.data ?? []).reduce((sum, event) => sum + event.count, 0);

  // FullCalendar may report the same dates again as it re-renders: only a real change is kept.
  const onDates = (arg: DatesSetArg) => {
    const next = {
      start: localDay(arg.start),
      end: addDays(localDay(arg.end), -1),
      title: arg.view.title,
      view: (Object.keys(VIEWS) as ViewName[]).find((key) => VIEWS[key] === arg.view.type) ?? view,
      date: localDay(arg.view.currentStart),
    };
    setRange((current) =>
      current && (Object.keys(next) as (keyof typeof next)[]).every((key) => current[key] === next[key])
        ? current
        : next,
    );
  };
  // The period shown goes to the address once rendered (FullCalendar reports it while rendering).
  useEffect(() => {
    if (range && (params.get('view') !== range.view || params.get('date') !== range.date)) {
      update({ view: range.view, date: range.date });
    }
  }, [range, params, update]);
  const api = () => calendar.current?.getApi();
  const target: MeetingTarget | null = params.get('meeting') ? { id: params.get('meeting') as string } : slot;
  const closeDialog = () => {
    setSlot(null);
    update({ meeting: null });
    api()?.unselect();
  };
  const newMeeting = () => {
    const hour = new Date();
    hour.setHours(hour.getHours() + 1, 0, 0, 0);
    setSlot({ slot: slotOf(hour, new Date(hour.getTime() + 60 * 60_000), false) });
  };

  const selects = (
    <>
      {canOpen('module_companies') && (
        <Select
          label="Insurer"
          placeholder="Any insurer"
          clearable
          value={company}
          onChange={(value) => update({ company: value })}
          data={(insurers.data ?? []).map((row) => ({ value: row.id, label: row.name }))}
          w={{ base: '100%', sm: 200 }}
        />
      )}
      <Select
        label="Assigned to"
        placeholder="Anyone"
        clearable
        value={assignee}
        onChange={(value) => update({ assignee: value })}
        data={(users.data ?? []).map((user) => ({ value: user.id, label: user.name || user.email }))}
        w={{ base: '100%', sm: 200 }}
      />
    </>
  );
  const narrowings = Number(askedKinds !== null) + Number(company !== null) + Number(assignee !== null);
  const clear = () => update({ kinds: null, company: null, assignee: null });
  const chips = (
    <KindChips
      kinds={available}
      shown={shown}
      touch={phone}
      onChange={(next) =>
        update({
          kinds: next.length === available.length ? null : next.length === 0 ? 'none' : next.join(','),
        })
      }
    />
  );
  const periodTitle = (
    <Title order={2} fz={phone ? 'h4' : 'h3'} ml={phone ? undefined : 'xs'}>
      {range?.title ?? ''}
    </Title>
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <Badge
            size="lg"
            variant="light"
            color={todayCount > 0 ? 'blue' : 'gray'}
            leftSection={<IconCalendarEvent size={14} aria-hidden />}
            aria-live="polite"
          >
            {todays.isPending ? '… today' : `${todayCount} today`}
          </Badge>
        </Group>
        <Group gap="sm" grow={phone} w={phone ? '100%' : undefined}>
          <Button
            variant="default"
            leftSection={<IconRss size={16} aria-hidden />}
            onClick={feed.open}
            mih={phone ? 44 : undefined}
          >
            {phone ? 'Feed' : 'Calendar feed'}
          </Button>
          {canWork && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={newMeeting}
              mih={phone ? 44 : undefined}
            >
              New meeting
            </Button>
          )}
        </Group>
      </Group>

      <Group justify="space-between" gap="sm" wrap={phone ? 'wrap' : 'nowrap'}>
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            variant="default"
            size={phone ? 44 : 36}
            aria-label="Earlier"
            onClick={() => api()?.prev()}
          >
            <IconChevronLeft size={18} />
          </ActionIcon>
          <Button variant="default" h={phone ? 44 : 36} px="sm" onClick={() => api()?.today()}>
            Today
          </Button>
          <ActionIcon
            variant="default"
            size={phone ? 44 : 36}
            aria-label="Later"
            onClick={() => api()?.next()}
          >
            <IconChevronRight size={18} />
          </ActionIcon>
          {!phone && periodTitle}
        </Group>
        <SegmentedControl
          aria-label="View"
          value={view}
          onChange={(value) => api()?.changeView(VIEWS[value as ViewName])}
          data={views.map((value) => ({ value, label: VIEW_LABELS[value] }))}
          fullWidth={phone}
          w={phone ? '100%' : undefined}
          size={phone ? 'md' : 'sm'}
        />
        {phone && periodTitle}
      </Group>

      {phone ? (
        <Button
          variant="default"
          h={44}
          onClick={filters.open}
          leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
          rightSection={
            narrowings > 0 ? (
              <Badge size="sm" circle>
                {narrowings}
              </Badge>
            ) : null
          }
        >
          Show and filter
        </Button>
      ) : (
        <Group justify="space-between" align="flex-end" gap="sm">
          {chips}
          <Group gap="sm" align="flex-end">
            {selects}
            {narrowings > 0 && (
              <Button variant="subtle" color="gray" onClick={clear}>
                Clear
              </Button>
            )}
          </Group>
        </Group>
      )}
      <Drawer
        opened={filtersOpen}
        onClose={filters.close}
        title="Filters"
        position="bottom"
        size="auto"
        closeButtonProps={{ 'aria-label': 'Close filters' }}
      >
        <Stack gap="sm" pb="md">
          {chips}
          {selects}
          <Group grow>
            <Button variant="default" onClick={clear}>
              Clear
            </Button>
            <Button onClick={filters.close}>Show events</Button>
          </Group>
        </Stack>
      </Drawer>

      {events.isError && <ErrorState error={events.error} onRetry={() => events.refetch()} />}
      {move.isError && (
        <Alert
          color="red"
          variant="light"
          withCloseButton
          onClose={() => move.reset()}
          title="The meeting was not moved"
        >
          {errorText(move.error)}
        </Alert>
      )}
      {(nothingShown || (events.isSuccess && events.data.length === 0 && !events.isPlaceholderData)) && (
        <Alert
          color="gray"
          variant="light"
          icon={<IconCalendarEvent size={18} />}
          title="Nothing on these dates"
        >
          {nothingShown
            ? 'Every kind of event is hidden: choose the ones to show above.'
            : 'Renewals, instalments due, lead follow-ups and claims appear on their dates by themselves. Click a day or a time to add a meeting there.'}
        </Alert>
      )}

      {/* Busy until the dates' events have come: the note for empty dates then appears above the
          grid and moves it down. */}
      <Skeleton
        visible={events.isPending && !nothingShown && range !== null}
        aria-busy={!nothingShown && (range === null || events.isPending)}
        radius="md"
      >
        <EventCalendar
          ref={calendar}
          view={view}
          date={params.get('date') ?? ''}
          events={nothingShown ? [] : (events.data ?? [])}
          phone={phone}
          onDates={onDates}
          onOpen={(event) =>
            event.kind === 'meeting' && event.count === 1
              ? update({ meeting: meetingId(event) })
              : navigate(event.url)
          }
          onSlot={(arg) => canWork && setSlot({ slot: slotOf(arg.start, arg.end, arg.allDay) })}
          onMove={(event, start, end, allDay, revert) =>
            move.mutate(
              { id: meetingId(event), times: movedTimes(start, end, allDay) },
              {
                onSuccess: (saved) =>
                  notifications.show({ color: 'green', message: `${saved.title} moved.` }),
                onError: revert,
              },
            )
          }
        />
      </Skeleton>

      <MeetingDialog target={target} onClose={closeDialog} />
      <FeedDialog opened={feedOpen} onClose={feed.close} />
    </Stack>
  );
}
