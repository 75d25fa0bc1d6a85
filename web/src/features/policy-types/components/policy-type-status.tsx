import { Badge } from '@mantine/core';

/** Active types are offered on new policies; inactive ones only keep their history. */
export function PolicyTypeStatus({ active }: { active: boolean }) {
  return <Badge color={active ? 'green' : 'gray'}>{active ? 'Active' : 'Inactive'}</Badge>;
}
