import {
  type CSSVariablesResolver,
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Tinted ("light") badges, buttons and alerts write in a darkened deepest shade: Mantine's default
 * mid shade on a pale tint fails contrast for green, yellow and the like.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return colors;
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  return parsed.isThemeColor && parsed.shade === undefined
    ? { ...colors, color: `color-mix(in srgb, var(--mantine-color-${parsed.color}-9) 70%, black)` }
    : colors;
};

/** One primary colour, one radius, the system font stack. */
export const theme = createTheme({
  primaryColor: 'indigo',
  variantColorResolver,
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
    // White text on Mantine's mid-tone badge colours fails contrast; tinted badges pass.
    Badge: { defaultProps: { variant: 'light' } },
  },
});

/** Mantine's default dimmed grey is too faint on white for body text (axe: 3.3:1); this passes 4.5:1. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
