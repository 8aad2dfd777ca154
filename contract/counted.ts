// English counts for the operators' tools (the admin page and the command line speak English):
// the noun in the form Intl.PluralRules picks for the number, "1 recipient", "1,200 recipients".
const english = new Intl.PluralRules('en')

export function counted(n: number, one: string, other: string): string {
  return `${n.toLocaleString('en')} ${english.select(n) === 'one' ? one : other}`
}

/** A campaign's audience: "1 recipient", "0 recipients". */
export const recipients = (n: number): string => counted(n, 'recipient', 'recipients')

/** "a viewer", "an editor", "an owner": the article English puts before the word. */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`
}
