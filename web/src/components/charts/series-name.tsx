import type { MantineColor } from '@mantine/core';
import { ColorSwatch } from '@mantine/core';

/** A series' name with its colour beside it, so the figures double as the chart's legend. */
export function SeriesName({ color, children }: { color: MantineColor; children: string }) {
  const [hue, shade = '6'] = color.split('.');
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <ColorSwatch
        color={`var(--mantine-color-${hue}-${shade})`}
        size={10}
        radius={2}
        withShadow={false}
        aria-hidden
      />
      {children}
    </span>
  );
}
