/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native-ish server packages stay in node_modules instead of being bundled.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "pg-boss"],
  poweredByHeader: false,
  // Builds and `next start` share .next; a test build can point elsewhere (see e2e/).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

export default nextConfig;
