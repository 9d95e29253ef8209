import { notFound } from "next/navigation";

/** Unknown paths inside a share end in the share's own not-found page, not the dashboard's. */
export default function UnknownSharedPath() {
  notFound();
}
