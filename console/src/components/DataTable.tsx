import { flexRender, getCoreRowModel, useReactTable, type Column, type ColumnDef, type RowData } from '@tanstack/react-table';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Right-aligned, in tabular figures. */
    numeric?: boolean;
  }
}

/** A column's header as words, after its group's ("Signalbox: Delivered"), for a cell read without the header row. */
function labelOf<Row>(column: Column<Row, unknown>): string {
  const own = typeof column.columnDef.header === 'string' ? column.columnDef.header : column.id;
  const group = column.parent ? labelOf(column.parent) : '';
  return group === '' || own.startsWith(group) ? own : `${group}: ${own}`;
}

/**
 * A plain table (TanStack Table), column groups included, with a footer row when columns have footers (totals);
 * `empty` shows when there are no rows. On a phone each row becomes a card, each cell under its header's words
 * (`data-label`), so that no column is out of sight in a frame that scrolls sideways.
 */
export function DataTable<Row>({ rows, columns, empty, caption, className }: { rows: Row[]; columns: ColumnDef<Row, unknown>[]; empty: string; caption?: string; className?: string }) {
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel() });
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  const numeric = (meta: { numeric?: boolean } | undefined) => (meta?.numeric ? 'num' : undefined);
  const hasFooter = table.getAllLeafColumns().some((column) => column.columnDef.footer !== undefined);
  return (
    <div className={`table-wrap${className ? ` ${className}` : ''}`}>
      <table>
        {caption && <caption>{caption}</caption>}
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope={header.colSpan > 1 ? 'colgroup' : 'col'} colSpan={header.colSpan} className={numeric(header.column.columnDef.meta)}>
                  {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className={numeric(cell.column.columnDef.meta)} data-label={labelOf(cell.column)}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {hasFooter && (
          <tfoot>
            <tr>
              {(table.getFooterGroups()[0]?.headers ?? []).map((footer) => (
                <td key={footer.id} className={numeric(footer.column.columnDef.meta)} data-label={labelOf(footer.column)}>
                  {flexRender(footer.column.columnDef.footer, footer.getContext())}
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
