/**
 * Button looks as class names, so links, submit buttons and client buttons share them without a
 * wrapper component in between (a wrapper would hide the native element tests select by role).
 */
const base =
  "inline-flex items-center justify-center gap-1.5 rounded-md font-medium shadow-sm disabled:cursor-not-allowed disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent";

const variants = {
  primary: "bg-accent text-accent-fg hover:opacity-90",
  secondary: "border border-border bg-bg text-fg hover:bg-panel",
  danger:
    "border border-red-600/40 bg-bg text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950",
  ghost: "text-muted shadow-none hover:bg-panel hover:text-fg",
} as const;

const sizes = { sm: "px-2 py-1 text-xs", md: "px-3 py-1.5 text-sm" } as const;

export type ButtonVariant = keyof typeof variants;

export function buttonClass(
  options: { variant?: ButtonVariant; size?: keyof typeof sizes } = {},
): string {
  return `${base} ${variants[options.variant ?? "primary"]} ${sizes[options.size ?? "md"]}`;
}
