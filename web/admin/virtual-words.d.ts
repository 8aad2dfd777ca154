// The admin page's catalogues, one module per language (scripts/vite-admin-words.ts).
declare module 'virtual:admin-words/*' {
  const catalogue: import('./words').AdminCatalogue
  export default catalogue
}
