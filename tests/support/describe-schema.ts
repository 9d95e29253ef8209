import type { Client } from "pg";

/**
 * A canonical, order-independent text of the public schema: enums, columns, constraints and
 * indexes. Two databases with the same text have the same schema (pg_dump would do, but no
 * pg_dump of the server's version is guaranteed on the machine).
 */
export async function describeSchema(client: Client): Promise<string[]> {
  const queries = [
    `SELECT 'enum ' || t.typname || ' ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder)
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
       JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = 'public' GROUP BY t.typname`,
    `SELECT 'column ' || table_name || '.' || column_name || ' ' || udt_name || ' ' ||
            is_nullable || ' ' || coalesce(column_default, '-')
       FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    `SELECT 'constraint ' || rel.relname || ' ' || con.conname || ' ' || pg_get_constraintdef(con.oid)
       FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid
       JOIN pg_namespace n ON n.oid = rel.relnamespace
      WHERE n.nspname = 'public' AND rel.relname <> '_prisma_migrations'`,
    `SELECT 'index ' || indexdef FROM pg_indexes
      WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
  ];
  const lines: string[] = [];
  for (const query of queries) {
    const { rows } = await client.query<Record<string, string>>(query);
    lines.push(...rows.map((row) => Object.values(row)[0]!));
  }
  return lines.sort();
}
