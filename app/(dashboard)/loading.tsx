export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading runs" className="space-y-4">
      <div className="h-8 w-40 animate-pulse rounded bg-panel" />
      <div className="h-48 animate-pulse rounded-lg bg-panel" />
    </div>
  );
}
