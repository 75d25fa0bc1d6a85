import type { Company } from '@coverdesk/contract';
import {
  Badge,
  Button,
  CloseButton,
  Drawer,
  Group,
  Select,
  type SelectProps,
  Stack,
  TextInput,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { ListParams } from '../lib/list-params.js';
import { useDebouncedDraft } from '../lib/use-debounced-draft.js';
import { useDevice } from '../lib/viewport.js';

/**
 * A list's filter row: the search box first, then the filters that matter, then Clear; the
 * export menu and the primary action at the right. On a phone the filters move into a drawer, the
 * export menu sits beside the search, and the action stays.
 */
export function ListToolbar(props: {
  params: Pick<ListParams<string>, 'search' | 'filters' | 'narrowed' | 'set' | 'clear'>;
  /** The search box's label; a list without a search box leaves it out. */
  searchLabel?: string;
  filters?: ReactNode;
  action?: ReactNode;
  /** The list's Export menu (`ExportMenu`). */
  exportMenu?: ReactNode;
}) {
  const device = useDevice();
  const { params } = props;
  const typed = useDebouncedDraft(params.search, (value) => params.set({ search: value }));
  const [drawer, { open, close }] = useDisclosure(false);
  const clearAll = () => {
    typed.cancel();
    params.clear();
  };

  const search = props.searchLabel !== undefined && (
    <TextInput
      aria-label={props.searchLabel}
      placeholder={props.searchLabel}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={typed.draft}
      onChange={(event) => {
        typed.change(event.currentTarget.value);
      }}
      rightSection={typed.draft ? <CloseButton aria-label="Clear search" onClick={typed.clear} /> : null}
      // It grows into the room the filters leave, but never pushes Clear onto a line of its own.
      flex="1 1 160px"
      miw={device === 'mobile' ? 0 : 160}
      maw={device === 'mobile' ? undefined : 360}
    />
  );
  const activeFilters = Object.keys(params.filters).length;
  // Its room is kept while nothing narrows the list: appearing as a filter is chosen, it would
  // otherwise shift the filters under the pointer.
  const clear = (
    <Button
      variant="subtle"
      color="gray"
      onClick={clearAll}
      style={params.narrowed ? undefined : { visibility: 'hidden' }}
    >
      Clear
    </Button>
  );

  if (device === 'mobile') {
    return (
      <Stack gap="xs">
        {props.action}
        <Group gap="xs" wrap="nowrap" justify={search ? undefined : 'flex-end'}>
          {search}
          {props.filters && (
            <Button
              variant="default"
              onClick={open}
              leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
              rightSection={
                activeFilters > 0 ? (
                  <Badge size="sm" circle>
                    {activeFilters}
                  </Badge>
                ) : null
              }
              h={44}
            >
              Filters
            </Button>
          )}
          {props.exportMenu}
        </Group>
        <Drawer
          opened={drawer}
          onClose={close}
          title="Filters"
          position="bottom"
          size="auto"
          closeButtonProps={{ 'aria-label': 'Close filters' }}
        >
          <Stack gap="sm" pb="md">
            {props.filters}
            <Group grow>
              <Button variant="default" onClick={clearAll}>
                Clear
              </Button>
              <Button onClick={close}>Show results</Button>
            </Group>
          </Stack>
        </Drawer>
      </Stack>
    );
  }
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Group gap="sm" align="flex-end" flex={1}>
        {search}
        {props.filters}
        {clear}
      </Group>
      <Group gap="sm" wrap="nowrap">
        {props.exportMenu}
        {props.action}
      </Group>
    </Group>
  );
}

type FilterParams<Filter extends string> = Pick<ListParams<Filter>, 'filters' | 'set'>;

/** A filter choice kept in the URL under `name`; clearing it removes the filter. */
export function FilterSelect<Filter extends string>({
  params,
  name,
  width,
  ...select
}: { params: FilterParams<Filter>; name: Filter; width: number } & Omit<
  SelectProps,
  'value' | 'onChange' | 'clearable' | 'w' | 'name'
>) {
  return (
    <Select
      {...select}
      value={params.filters[name] ?? null}
      onChange={(value) => params.set({ [name]: value })}
      clearable
      w={{ base: '100%', sm: width }}
    />
  );
}

/** A list's insurer filter, kept in the URL as `company_id`. */
export function InsurerFilter<Filter extends string>({
  params,
  insurers = [],
  width = 170,
}: {
  params: FilterParams<Filter | 'company_id'>;
  insurers: Company[] | undefined;
  width?: number;
}) {
  return (
    <FilterSelect
      params={params}
      name="company_id"
      label="Insurer"
      placeholder="Any insurer"
      data={insurers.map((insurer) => ({ value: insurer.id, label: insurer.name }))}
      searchable
      width={width}
    />
  );
}

/**
 * The insurer filter and the policy type filter of a list of policies, the types being those the
 * agency's insurers sell.
 */
export function InsurerAndTypeFilters<Filter extends string>({
  params,
  insurers = [],
}: {
  params: FilterParams<Filter | 'company_id' | 'policy_type_id'>;
  insurers: Company[] | undefined;
}) {
  const types = new Map(
    insurers.flatMap((insurer) => insurer.policy_types.map((rate) => [rate.policy_type_id, rate.name])),
  );
  return (
    <>
      <InsurerFilter params={params} insurers={insurers} />
      <FilterSelect
        params={params}
        name="policy_type_id"
        label="Type"
        placeholder="Any type"
        data={[...types].map(([value, label]) => ({ value, label }))}
        width={150}
      />
    </>
  );
}

/** A date filter kept in the URL under `name`. */
export function FilterDate<Filter extends string>({
  params,
  name,
  label,
}: {
  params: FilterParams<Filter>;
  name: Filter;
  label: string;
}) {
  return (
    <TextInput
      type="date"
      label={label}
      value={params.filters[name] ?? ''}
      onChange={(event) => params.set({ [name]: event.currentTarget.value || null })}
      w={{ base: '100%', sm: 148 }}
    />
  );
}
