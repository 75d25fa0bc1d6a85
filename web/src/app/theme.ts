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
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || parsed.shade !== undefined) return colors;
  if (input.variant === 'light') {
    return { ...colors, color: `color-mix(in srgb, var(--mantine-color-${parsed.color}-9) 70%, black)` };
  }
  // White on the mid shade of red, green and the like is below 4.5:1; their deepest shade passes.
  if (input.variant === 'filled' && parsed.color !== input.theme.primaryColor) {
    const deepest = `var(--mantine-color-${parsed.color}-9)`;
    return { ...colors, background: deepest, hover: `color-mix(in srgb, ${deepest} 85%, black)` };
  }
  return colors;
};

/** One primary colour, one radius, the system font stack. */
export const theme = createTheme({
  primaryColor: 'indigo',
  variantColorResolver,
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  // People who ask their system for less motion get no sliding toasts, menus or modals.
  respectReducedMotion: true,
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
    // Toasts' close buttons are icons; screen readers need their name.
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } },
  },
});

/**
 * Mantine's default dimmed grey (3.3:1) and error red are too faint on white for text; these pass
 * 4.5:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
