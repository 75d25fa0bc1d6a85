import { type CSSVariablesResolver, createTheme } from '@mantine/core';

/** One primary colour, one radius, the system font stack. */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    Button: { defaultProps: { size: 'sm' } },
    // Links inside text must not rely on colour alone to stand out.
    Anchor: { defaultProps: { underline: 'always' } },
  },
});

/** Mantine's default dimmed grey is too faint on white for body text (axe: 3.3:1); this passes 4.5:1. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
