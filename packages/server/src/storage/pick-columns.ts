/** Copies only a table's columns out of a record, since a record handed in may carry extra properties. */
export function pickColumns<T extends object, K extends keyof T>(record: T, columns: readonly K[]): Pick<T, K> {
  const row = {} as Pick<T, K>;
  for (const column of columns) row[column] = record[column];
  return row;
}
