// A module loaded at its first use rather than at start (passkeys' library, mailparser, mailauth's
// signer): a start, and a server that never needs it, goes without. The load is asked for once;
// every caller shares it.
export function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined
  return () => (loaded ??= load())
}
