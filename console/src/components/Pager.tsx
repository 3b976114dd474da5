/** "Newer" and "Older" for a list read a page at a time; each only while there is such a page (no button that does nothing). */
export function Pager({ newer, older }: { newer: (() => void) | null; older: (() => void) | null }) {
  if (newer === null && older === null) return null;
  return (
    <div className="pager">
      {newer && (
        <button type="button" className="button small" onClick={newer}>
          Newer
        </button>
      )}
      {older && (
        <button type="button" className="button small" onClick={older}>
          Older
        </button>
      )}
    </div>
  );
}
