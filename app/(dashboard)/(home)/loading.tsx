import { LoadingRegion, Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <LoadingRegion label="Loading runs">
      <Skeleton className="h-8 w-40" />
      <Skeleton className="h-48 rounded-lg" />
    </LoadingRegion>
  );
}
