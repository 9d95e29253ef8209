/** The one large run `npm run seed:large` writes and `npm run bench:pages` measures. */
export const LARGE_RUN_SLUG = "large-benchmark";
/** The generation that holds most tasks, so its deepest table page is deep. */
export const BIG_GENERATION = 5;
