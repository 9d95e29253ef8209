export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading run" className="space-y-6">
      <div className="space-y-2">
        <div className="h-4 w-24 animate-pulse rounded bg-panel" />
        <div className="h-8 w-72 animate-pulse rounded bg-panel" />
      </div>
      <div className="h-40 animate-pulse rounded-lg bg-panel" />
      <div className="h-64 animate-pulse rounded-lg bg-panel" />
    </div>
  );
}
