type Query = Record<string, string | number>;

/** The period and insurer of the report's own filters, as the producers' view takes them. */
export function producerQuery(exportQuery: Query): Query {
  const query: Query = {};
  if (exportQuery.start_date) query.date_from = exportQuery.start_date;
  if (exportQuery.end_date) query.date_to = exportQuery.end_date;
  if (exportQuery.company_id) query.company_id = exportQuery.company_id;
  return query;
}
