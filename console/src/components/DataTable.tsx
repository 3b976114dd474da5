import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowData } from '@tanstack/react-table';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Right-aligned, in tabular figures. */
    numeric?: boolean;
  }
}

/** A plain table (TanStack Table), column groups included; `empty` shows when there are no rows. */
export function DataTable<Row>({ rows, columns, empty, caption, className }: { rows: Row[]; columns: ColumnDef<Row, unknown>[]; empty: string; caption?: string; className?: string }) {
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel() });
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  const numeric = (meta: { numeric?: boolean } | undefined) => (meta?.numeric ? 'num' : undefined);
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
                <td key={cell.id} className={numeric(cell.column.columnDef.meta)}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
