/**
 * Prints the SQL that inserts the reference data (src/lib/db/reference-rows.ts), as a migration holds it:
 *
 *   node scripts/reference-data-sql.ts > migrations/0036_reference_data.sql
 */
import { referenceDataSql } from '../src/lib/db/reference-rows.ts';

process.stdout.write(referenceDataSql());
