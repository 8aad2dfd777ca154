// Each route's JSON schema compiled to a validator once per process, whichever Fastify instance asks:
// Fastify makes a compiler pool per app, and Ajv remembers a compiled schema by its object, which
// every build makes anew; here the same schema is remembered by its text (with the app's external
// schemas and Ajv options in the key). A server builds one app and gains nothing; the tests build
// hundreds, and compiling ~100 schemas was a quarter of a second of each start.
// Given a compiler of its own, Fastify no longer lower-cases the keys of a `headers` schema (no
// route has one): a headers schema here names its keys in lower case.
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
  // Fastify calls it with the route's definition ({ schema, method, url, httpPart }).
  return (route) => {
    const text = JSON.stringify((route as { schema?: unknown }).schema)
    let validator = known.get(text)
    if (!validator) known.set(text, (validator = compile(route)))
    return validator
  }
}
