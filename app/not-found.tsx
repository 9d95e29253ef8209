import Link from "next/link";

export default function NotFound() {
  return (
    <div className="space-y-3 py-16 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-muted">There is nothing at this address.</p>
      <Link href="/" className="text-accent underline">
        Back to runs
      </Link>
    </div>
  );
}
