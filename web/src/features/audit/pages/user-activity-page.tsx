import { AUDIT_ACTION_LABELS, AUDIT_ENTITY_LABELS } from '@coverdesk/contract';
import { Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { ActivityLog } from '../../../components/activity-log.js';
import { FilterDate, FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { useListParams } from '../../../lib/list-params.js';
import { TYPING_DEBOUNCE_MS } from '../../../lib/use-debounced-draft.js';
import { useActivityAgencies, useUserActivity } from '../api.js';

const FILTERS = ['tenant', 'action', 'entity', 'date_from', 'date_to'] as const;
const toOptions = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));
const ACTION_OPTIONS = toOptions(AUDIT_ACTION_LABELS);
const ENTITY_OPTIONS = toOptions(AUDIT_ENTITY_LABELS);

/** The agency filter: agencies looked up by name as the admin types, the chosen one kept in the URL. */
function AgencyFilter({ value, onChange }: { value: string | null; onChange(value: string | null): void }) {
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search.trim(), TYPING_DEBOUNCE_MS);
  const agencies = useActivityAgencies(typed);
  // Names already seen, so the chosen agency keeps its name when a later search leaves it out.
  const names = useRef(new Map<string, string>());
  for (const agency of agencies.data?.results ?? []) names.current.set(agency.id, agency.name);
  const data = [...names.current].map(([id, name]) => ({ value: id, label: name }));
  if (value && !names.current.has(value)) data.unshift({ value, label: 'The chosen agency' });
  return (
    <Select
      label="Agency"
      placeholder="Any agency"
      data={data}
      value={value}
      onChange={onChange}
      searchable
      clearable
      onSearchChange={setSearch}
      nothingFoundMessage={agencies.isFetching ? 'Looking…' : 'No agency by that name'}
      w={{ base: '100%', sm: 210 }}
    />
  );
}

/** /admin/user-activity: the whole platform's audit log, by agency, user, action, record and day. */
export function Component() {
  const params = useListParams(FILTERS, '-occurred_at');
  const { search, ordering: _ordering, ...rest } = params.query;
  const list = useUserActivity(search ? { ...rest, user: search } : rest);

  return (
    <Stack>
      <ListToolbar
        params={params}
        searchLabel="User id or email"
        filters={
          <>
            <AgencyFilter
              value={params.filters.tenant ?? null}
              onChange={(tenant) => params.set({ tenant })}
            />
            <FilterSelect
              params={params}
              name="action"
              label="Action"
              placeholder="Any action"
              data={ACTION_OPTIONS}
              searchable
              width={170}
            />
            <FilterSelect
              params={params}
              name="entity"
              label="Record"
              placeholder="Any record"
              data={ENTITY_OPTIONS}
              width={130}
            />
            <FilterDate params={params} name="date_from" label="From" />
            <FilterDate params={params} name="date_to" label="To" />
          </>
        }
      />
      <ActivityLog
        query={list}
        params={params}
        showAgency
        emptyText="Sign-ins, changes to agencies' records and admin actions appear here as they happen."
      />
    </Stack>
  );
}
