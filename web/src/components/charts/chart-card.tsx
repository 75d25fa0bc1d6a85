import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { useDevice } from '../../lib/viewport.js';

/** A section of an analytics screen: a heading, a line on what it counts, and its figures. */
export function FigureCard(props: { title: string; description?: ReactNode; children: ReactNode }) {
  const titleId = useId();
  // A phone's width goes to the figures, not the card's margins.
  const padding = useDevice() === 'mobile' ? 'md' : 'lg';
  return (
    <Card withBorder padding={padding} component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <div>
          <Title order={2} fz="h4" id={titleId}>
            {props.title}
          </Title>
          {props.description && (
            <Text fz="sm" c="dimmed">
              {props.description}
            </Text>
          )}
        </div>
        {props.children}
      </Stack>
    </Card>
  );
}

/**
 * A chart with its figures: the chart is a picture for the eye (screen readers are pointed to the
 * figures), and the table or list beside or below it holds every number it draws.
 */
export function ChartCard(props: {
  title: string;
  description?: ReactNode;
  chart: ReactNode;
  figures: ReactNode;
  /** Chart and figures side by side in a wide card; otherwise the figures go below. */
  side?: boolean;
  /** What to say instead of drawing an empty chart. */
  empty?: string | false;
}) {
  return (
    <FigureCard title={props.title} description={props.description}>
      {props.empty ? (
        <Text c="dimmed" py="md">
          {props.empty}
        </Text>
      ) : (
        // Side by side only when the card itself is wide: a half-width card on a desk stacks them too.
        <SimpleGrid type="container" cols={{ base: 1, '640px': props.side ? 2 : 1 }} spacing="lg">
          <div
            role="img"
            aria-label={`Chart of ${props.title.toLowerCase()}; its figures are listed with it.`}
          >
            {props.chart}
          </div>
          <div>{props.figures}</div>
        </SimpleGrid>
      )}
    </FigureCard>
  );
}
