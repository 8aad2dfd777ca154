import { content } from '../../web/content'

/** The headings of SPEC §2's sections after the hero, in the order the page must show them. */
export const SECTION_HEADINGS = [
  content.about.heading,
  content.audiences.heading,
  content.features.heading,
  content.howItWorks.heading,
  content.whyChoose.heading,
  content.trust.heading,
  content.waitlist.heading,
]
