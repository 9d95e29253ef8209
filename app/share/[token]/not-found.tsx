/** A valid share, but no such generation, task or trajectory in its run. */
export default function SharedItemNotFound() {
  return (
    <div className="space-y-3 py-16 text-center">
      <h1 className="text-2xl font-semibold">Not found in this shared run</h1>
      <p className="text-muted">There is nothing at this address in the run that was shared.</p>
    </div>
  );
}
