import { Badge, Group } from '@mantine/core';

/** A customer's tags as badges; in a list row only the first few, and how many more there are. */
export function CustomerTags({ tags, max }: { tags: string[]; max?: number }) {
  if (tags.length === 0) return null;
  const shown = max === undefined ? tags : tags.slice(0, max);
  const hidden = tags.length - shown.length;
  return (
    <Group gap={4}>
      {shown.map((tag) => (
        <Badge key={tag} color="gray" tt="none">
          {tag}
        </Badge>
      ))}
      {hidden > 0 && (
        <Badge color="gray" variant="outline" tt="none" title={tags.slice(shown.length).join(', ')}>
          +{hidden} more
        </Badge>
      )}
    </Group>
  );
}
