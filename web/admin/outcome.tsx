// What useAction says after a change: its notice (announced politely) and a refusal's reason
// (announced at once, hidden while empty), in the place every view shows them.
export function ActionOutcome({ notice, problem }: { notice: string; problem: string }) {
  return (
    <>
      <p role="status" className="mt-2 min-h-5 text-sm text-stone-700">
        {notice}
      </p>
      <p role="alert" className="text-sm font-medium text-red-700 empty:hidden">
        {problem}
      </p>
    </>
  )
}
