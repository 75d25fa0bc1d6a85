import { addDays, type CalendarEvent } from '@coverdesk/contract';
import type {
  DateSelectArg,
  DatesSetArg,
  EventClickArg,
  EventContentArg,
  EventDropArg,
  EventInput,
} from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { type EventResizeDoneArg } from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { Text } from '@mantine/core';
import { forwardRef } from 'react';
import { useCan } from '../../../lib/use-can.js';
import classes from './event-calendar.module.css';
import { eventColors, KIND_STYLES } from './event-kinds.js';

/** The calendar's views as the URL names them, and FullCalendar's name for each. */
export const VIEWS = {
  month: 'dayGridMonth',
  week: 'timeGridWeek',
  day: 'timeGridDay',
  agenda: 'listWeek',
} as const;
export type ViewName = keyof typeof VIEWS;

const toInput = (event: CalendarEvent, movable: boolean): EventInput => ({
  id: event.id,
  title: event.title,
  start: event.start,
  // FullCalendar ends all-day events on the day after their last.
  end: event.all_day ? (event.end ? addDays(event.end, 1) : undefined) : (event.end ?? undefined),
  allDay: event.all_day,
  editable: movable && event.kind === 'meeting',
  ...eventColors(event.kind, event.overdue),
  extendedProps: { event },
});

/** An event's face: the kind's icon, "Overdue" in words for an overdue instalment, the time and title. */
function EventFace({ event: { extendedProps, title }, timeText }: EventContentArg) {
  const event = extendedProps.event as CalendarEvent | undefined;
  // The selection being drawn ("mirror") is no event of ours yet.
  if (!event) return <span className={classes.face}>{timeText || title}</span>;
  const KindIcon = KIND_STYLES[event.kind].icon;
  // The whole title on hover too, where a phone's narrow day still clamps a long one.
  const whole = `${event.overdue ? 'Overdue: ' : ''}${timeText ? `${timeText} ` : ''}${event.title}`;
  return (
    <span className={classes.face} title={whole}>
      <KindIcon size={13} aria-hidden className={classes.icon} />
      {event.overdue && (
        <Text component="span" fz="inherit" fw={700}>
          Overdue:{' '}
        </Text>
      )}
      {timeText && <span className={classes.time}>{timeText} </span>}
      <span>{event.title}</span>
    </span>
  );
}

const MEETING_COLORS = eventColors('meeting', false);

export interface EventCalendarProps {
  view: ViewName;
  date: string;
  events: CalendarEvent[];
  phone: boolean;
  onDates(arg: DatesSetArg): void;
  onOpen(event: CalendarEvent): void;
  onSlot(arg: DateSelectArg): void;
  /** A meeting dragged or resized: its new times, or a revert when the change fails. */
  onMove(event: CalendarEvent, start: Date, end: Date | null, allDay: boolean, revert: () => void): void;
}

/** FullCalendar, with Coverdesk's events, faces and interactions; the page drives it through the ref. */
export const EventCalendar = forwardRef<FullCalendar, EventCalendarProps>(function EventCalendar(props, ref) {
  // Adding and moving meetings is work on the book; a role that reads only opens them.
  const canWork = useCan('work');
  const moved = (arg: EventDropArg | EventResizeDoneArg) => {
    const { event } = arg;
    if (!event.start) return arg.revert();
    props.onMove(
      event.extendedProps.event as CalendarEvent,
      event.start,
      event.end,
      event.allDay,
      arg.revert,
    );
  };
  return (
    <div className={classes.calendar} data-phone={props.phone || undefined}>
      <FullCalendar
        ref={ref}
        plugins={[dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
        initialView={VIEWS[props.view]}
        initialDate={props.date || undefined}
        headerToolbar={false}
        height="auto"
        events={props.events.map((event) => toInput(event, canWork))}
        datesSet={props.onDates}
        eventContent={(arg) => <EventFace {...arg} />}
        eventClick={(arg: EventClickArg) => {
          arg.jsEvent.preventDefault();
          props.onOpen(arg.event.extendedProps.event as CalendarEvent);
        }}
        selectable={canWork}
        selectMirror
        // The selection being drawn looks like the meeting it will become.
        eventBackgroundColor={MEETING_COLORS.backgroundColor}
        eventBorderColor={MEETING_COLORS.borderColor}
        eventTextColor={MEETING_COLORS.textColor}
        select={props.onSlot}
        selectLongPressDelay={300}
        eventLongPressDelay={300}
        eventDrop={moved}
        eventResize={moved}
        dayMaxEvents={props.phone ? 2 : 4}
        // A phone's day cell holds "+3", not "+3 more".
        moreLinkContent={props.phone ? (arg) => `+${arg.num}` : undefined}
        nowIndicator
        scrollTime="08:00:00"
        slotMinTime="06:00:00"
        slotMaxTime="22:00:00"
        allDayText="All day"
        noEventsContent="Nothing on these days."
        eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
      />
    </div>
  );
});
