import { Table, VisuallyHidden, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A list as a table that scrolls sideways below `minWidth`: a heading row of `columns` (with
 * `scope="col"` when `scoped`), then the rows given as children. `actions` adds a last column for
 * the row's buttons, its heading read by screen readers only. Other props go to Mantine's Table.
 */
export function ListTable({
  minWidth,
  nativeScroll,
  columns,
  scoped,
  actions,
  children,
  ...table
}: TableProps & {
  minWidth: number;
  /** The browser's own scroll bar (`type="native"`) instead of Mantine's. */
  nativeScroll?: boolean;
  columns: readonly string[];
  scoped?: boolean;
  actions?: boolean;
  children: ReactNode;
}) {
  const scope = scoped ? 'col' : undefined;
  return (
    <Table.ScrollContainer minWidth={minWidth} type={nativeScroll ? 'native' : undefined}>
      <Table {...table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column} scope={scope}>
                {column}
              </Table.Th>
            ))}
            {actions && (
              <Table.Th scope={scope}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
