import { Center, Loader } from '@mantine/core';

/** While the session or a screen's code is loading. */
export function PageLoader() {
  return (
    <Center h="60vh" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}
