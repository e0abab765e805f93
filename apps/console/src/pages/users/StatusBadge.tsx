import { Badge } from '@mantine/core';
import type { components } from '../../api/control-plane';

/** A user's `status`, readable in both themes. */
export function StatusBadge({
  status,
}: {
  status: components['schemas']['UserResponse']['status'];
}) {
  return (
    <Badge variant="dot" color={status === 'active' ? 'teal' : 'red'} size="sm">
      {status}
    </Badge>
  );
}
