import { LoadingRegion, Skeleton } from "@/components/ui/skeleton";

/** The overview's shape while it loads: header, config, round panel, charts, timeline. */
export default function Loading() {
  return (
    <LoadingRegion label="Loading run">
      <div className="space-y-2">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="h-8 w-72" />
      </div>
      <Skeleton className="h-14 rounded-lg" />
      <Skeleton className="h-32 rounded-lg" />
      <Skeleton className="h-80 rounded-lg" />
      <div className="grid gap-4 lg:grid-cols-2">
        <Skeleton className="h-72 rounded-lg" />
        <Skeleton className="h-72 rounded-lg" />
      </div>
      <Skeleton className="h-48 rounded-lg" />
    </LoadingRegion>
  );
}
