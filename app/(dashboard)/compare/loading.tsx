import { LoadingRegion, Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <LoadingRegion label="Loading comparison">
      <Skeleton className="h-8 w-56" />
      <Skeleton className="h-20 rounded-lg" />
      <Skeleton className="h-80 rounded-lg" />
      <div className="grid gap-4 lg:grid-cols-2">
        <Skeleton className="h-72 rounded-lg" />
        <Skeleton className="h-72 rounded-lg" />
      </div>
    </LoadingRegion>
  );
}
