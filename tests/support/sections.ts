import { type Content, content } from '../../web/content'

/** The headings of the sections after the hero (docs/requirements.md#sections), in the order the page must show them. */
export const SECTION_HEADINGS = sectionHeadingsOf(content)

/**
 * The names the requirements give the sections after the hero (docs/requirements.md#sections): each section's
 * heading starts with its name, so a screen reader's list of headings reads them.
 */
export const SPEC_SECTION_NAMES = [
  'About',
  'Who Is It For',
  'Key Features & Capabilities',
  'How It Works',
  'Why Choose',
  'Built on Trust, Privacy & Safety',
]

/** The same headings in any language's words. */
export function sectionHeadingsOf(words: Content): string[] {
  return [
    words.about.heading,
    words.audiences.heading,
    words.features.heading,
    words.howItWorks.heading,
    words.whyChoose.heading,
    words.trust.heading,
    words.waitlist.heading,
  ]
}
