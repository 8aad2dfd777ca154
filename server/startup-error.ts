/**
 * A start that cannot work for a reason outside the code (a port in use, a file that cannot be
 * opened, a database that cannot be reached). Its message is one or two plain lines, what is
 * wrong and what to do, and it is printed without a stack trace; anything else is a bug and is
 * printed whole.
 */
export class StartupError extends Error {
  override name = 'StartupError'
}

/** The listen call failed: which address, why, and the variables that choose another. */
export function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown } | null)?.code
  const where = `${host}:${port}`
  if (code === 'EADDRINUSE') {
    return new StartupError(
      `Cannot listen on ${where}: the port is in use by another program.\nStop it, or choose another port with PORT (for example PORT=3001 npm start).`,
    )
  }
  if (code === 'EACCES') {
    return new StartupError(
      `Not allowed to listen on ${where} (ports below 1024 need privileges).\nChoose another port with PORT (for example PORT=3000).`,
    )
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new StartupError(
      `Cannot listen on ${where}: ${host} is not an address of this machine.\nSet HOST to one of its addresses (127.0.0.1 for this machine only, 0.0.0.0 for all).`,
    )
  }
  return error
}
