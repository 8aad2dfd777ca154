// @ts-check
// The Node this project runs on: 24 or newer (package.json's engines). `npm start`, `npm run
// waitlist` and the build import this first, so an older Node stops at once with one line
// instead of a stack trace from deep inside a dependency.
export const NODE_MAJOR_NEEDED = 24

/**
 * Undefined when the version is new enough, else the one line that says what to do.
 * @param {string} version `process.versions.node`, e.g. `20.20.2`
 */
export function checkNodeVersion(version) {
  const major = Number(version.split('.')[0])
  if (major >= NODE_MAJOR_NEEDED) return undefined
  return `Kennect needs Node ${NODE_MAJOR_NEEDED} or newer, and this is Node ${version} (${process.execPath}): install Node ${NODE_MAJOR_NEEDED} or 26 (see README.md, Quick start) and run the command again.`
}

const refusal = checkNodeVersion(process.versions.node)
if (refusal) {
  console.error(refusal)
  process.exit(1)
}
