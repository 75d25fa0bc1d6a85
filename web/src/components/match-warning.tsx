import { Alert, Box, List, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A hint, while a broker types, that the agency already has records like the one being entered:
 * one is named in a sentence, several are listed. Only a hint: saving is never blocked by it.
 */
export function MatchWarning<Match extends { id: string }>(props: {
  matches: Match[];
  icon: ReactNode;
  /** The sentence naming the one match. */
  one: (match: Match) => ReactNode;
  /** The sentence before the list of several. */
  several: ReactNode;
  /** A match as a list line. */
  line: (match: Match) => ReactNode;
  /** Why saving is still allowed. */
  footnote: ReactNode;
}) {
  const [first] = props.matches;
  return (
    <Box aria-live="polite">
      {first && (
        <Alert color="yellow" variant="light" icon={props.icon} role="status">
          {props.matches.length === 1 ? (
            <Text fz="sm">{props.one(first)}</Text>
          ) : (
            <>
              <Text fz="sm">{props.several}</Text>
              <List fz="sm" mt={4} spacing={2}>
                {props.matches.map((match) => (
                  <List.Item key={match.id}>{props.line(match)}</List.Item>
                ))}
              </List>
            </>
          )}
          <Text fz="sm" mt={4}>
            {props.footnote}
          </Text>
        </Alert>
      )}
    </Box>
  );
}
