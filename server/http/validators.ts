// Each route's JSON schema compiled to a validator once per process, whichever Fastify instance asks
// (@fastify/ajv-compiler, Fastify's own compiler, shares one Ajv between instances of the same
// options; Ajv remembers a compiled schema by its object, and every build makes the schemas anew,
// so the same schema is remembered here by its text). A server builds one app, and gains nothing;
// the tests build hundreds, and compiling ~100 schemas was a quarter of a second of each start.
import { AjvCompiler, type BuildCompilerFromPool as BuildCompiler } from '@fastify/ajv-compiler'

type Compile = ReturnType<BuildCompiler>

const pooled = AjvCompiler()
const compiled = new Map<string, Map<string, ReturnType<Compile>>>()

export const buildValidator: BuildCompiler = (externalSchemas, options) => {
  const compile = pooled(externalSchemas, options)
  const key = JSON.stringify([externalSchemas, options])
  let seen = compiled.get(key)
  if (!seen) compiled.set(key, (seen = new Map()))
  const known = seen
  // Fastify calls it with the route's definition ({ schema, method, url, httpPart }), and the
  // pooled compiler reads `schema` from it; the package's types name the argument a schema.
  return (route) => {
    const text = JSON.stringify((route as { schema?: unknown }).schema)
    let validator = known.get(text)
    if (!validator) known.set(text, (validator = compile(route)))
    return validator
  }
}
