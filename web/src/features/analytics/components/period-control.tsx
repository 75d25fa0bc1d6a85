import { Group, Loader, NativeSelect, SegmentedControl, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useDevice } from '../../../lib/viewport.js';

/**
 * The span an analytics screen covers, with word of a reload under way: the figures of the previous
 * choice stay up until the new ones arrive. A row of choices on a desk; on a phone, where four
 * would not fit across, the phone's own picker.
 */
export function PeriodControl<Choice extends string>(props: {
  label: string;
  value: Choice;
  choices: readonly { value: Choice; label: string }[];
  onChange(choice: Choice): void;
  updating: boolean;
  /** What the chosen span covers ("From 23 Aug 2026 to today"). */
  children?: ReactNode;
}) {
  const phone = useDevice() === 'mobile';
  return (
    <Group gap="sm" justify="space-between" align="flex-end" wrap="wrap">
      {phone ? (
        <NativeSelect
          label={props.label}
          value={props.value}
          onChange={(event) => props.onChange(event.currentTarget.value as Choice)}
          data={[...props.choices]}
          w="100%"
          size="md"
        />
      ) : (
        <SegmentedControl
          role="radiogroup"
          aria-label={props.label}
          value={props.value}
          onChange={(value) => props.onChange(value as Choice)}
          data={[...props.choices]}
        />
      )}
      <Group gap="xs" aria-live="polite">
        {props.updating && (
          <>
            <Loader size="xs" aria-hidden />
            <VisuallyHidden>Updating</VisuallyHidden>
          </>
        )}
        <Text fz="sm" c="dimmed">
          {props.children}
        </Text>
      </Group>
    </Group>
  );
}
