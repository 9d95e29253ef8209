import { LoadingRegion, Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <LoadingRegion label="Loading task">
      <Skeleton className="h-4 w-64" />
      <Skeleton className="h-7 w-3/4" />
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-64 w-full" />
    </LoadingRegion>
  );
}
