// @ts-check
// The linter, run by `npm test` (npm run lint). Besides the recommended rules of JavaScript,
// TypeScript, React's hooks and JSX accessibility, it holds the boundaries of the house
// (docs/decisions/010-the-sign-up-has-a-home.md): web/ and server/ meet only over HTTP and share
// only contract/, which imports nothing outside itself, and locales/, the catalogues and their
// translator (docs/decisions/016-languages.md).
import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** An import that climbs out of the file's folder into one of these folders of the project. */
const into = (/** @type {string[]} */ folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
    plugins: { ...jsxA11y.flatConfigs.recommended.plugins, 'react-hooks': reactHooks },
    languageOptions: { ...jsxA11y.flatConfigs.recommended.languageOptions, globals: globals.browser },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      ...reactHooks.configs.recommended.rules,
      // A box that scrolls must take the focus, so a keyboard can scroll it (axe:
      // scrollable-region-focusable); it is a labelled region.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['tabpanel', 'region'], tags: [] }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: into(['server', 'tests', 'scripts', 'bench', 'db']),
              message: 'web/ imports only web/ and contract/: the server is reached over HTTP.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    languageOptions: { globals: globals.node },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: into(['web', 'tests', 'scripts', 'bench']),
              message: 'server/ imports only server/ and contract/: the page is reached over HTTP.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['locales/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: into(['web', 'server', 'tests', 'scripts', 'bench', 'db']),
              message:
                'locales/ imports only itself, contract/ and i18next: both sides use it (the build and the server, never the browser).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\./)', message: 'contract/ imports nothing outside itself: it is the types and constants both sides share.' },
          ],
        },
      ],
    },
  },
  { files: ['scripts/**', 'bench/**', 'tests/**', '*.config.*'], languageOptions: { globals: globals.node } },
)
