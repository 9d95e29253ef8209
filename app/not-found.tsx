import Link from "next/link";

export default function NotFound() {
  return (
    <main className="mx-auto max-w-7xl space-y-3 px-6 py-24 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-muted">There is nothing at this address.</p>
      <Link href="/" className="text-accent underline">
        Back to runs
      </Link>
    </main>
  );
}
